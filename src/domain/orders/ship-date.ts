import { invalidField } from '../errors.js';

/**
 * When a package may say it shipped (issue 23, resolutions §6): not before its order was placed (the
 * timeline would show "shipped" before "ordered", and the channel would be told an impossible date), and not
 * more than a day ahead of the service's clock. The day covers a label bought today for tomorrow's pickup
 * and a partner's clock or time zone a little off; anything later is a date the package has not reached.
 */
export const MAX_SHIP_DATE_AHEAD_MS = 24 * 60 * 60 * 1000;

/**
 * Refuses (400 naming `field` and the package) a shippedTs before the order's orderTs or more than a day
 * after `now`; the bounds themselves are allowed.
 */
export function checkShipDate(field: string, packageId: string, shippedTs: Date, orderTs: string, now: Date): void {
  const shipped = shippedTs.getTime();
  const ordered = Date.parse(orderTs);
  if (shipped < ordered) {
    throw invalidField(
      field,
      `package "${packageId}" is dated ${shippedTs.toISOString()}, before its order was placed (orderTs ${new Date(ordered).toISOString()}); a package cannot ship before its order`,
    );
  }
  const latest = now.getTime() + MAX_SHIP_DATE_AHEAD_MS;
  if (shipped > latest) {
    throw invalidField(
      field,
      `package "${packageId}" is dated ${shippedTs.toISOString()}, more than a day after now (${now.toISOString()}); send the time it actually shipped, or omit shippedTs for now`,
    );
  }
}
