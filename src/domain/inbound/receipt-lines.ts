import { invalidFields, isAppError, type FieldViolation } from '../errors.js';
import { costInput } from './inputs.js';

/**
 * Which shipment line each entry of a receipt names, checked against what is still outstanding. Every problem
 * is listed at once; nothing is received unless every entry is valid (the caller's transaction).
 */

/** One entry of a receipt body: the line by sku or product_id. */
export interface ReceiveProductInput {
  sku?: string | undefined;
  product_id?: number | undefined;
  quantity: number;
  unit_item_cost?: number | string | null | undefined;
}

export interface ShipmentLine {
  id: number;
  product_id: number;
  sku: string;
  quantity: number;
  received_quantity: number;
  unit_item_cost: string | null;
}

export interface ReceiptLine {
  line: ShipmentLine;
  units: number;
  /** The receipt's unit cost when given, else the line's; null when neither has one. */
  unitItemCost: string | null;
  /** Where the entry was in the body, for messages. */
  field: string;
}

export const outstandingOf = (line: Pick<ShipmentLine, 'quantity' | 'received_quantity'>) => line.quantity - line.received_quantity;

export function overReceiptMessage(line: ShipmentLine, asked: number): string {
  return (
    `line "${line.sku}" has ${outstandingOf(line)} unit${outstandingOf(line) === 1 ? '' : 's'} outstanding ` +
    `(${line.quantity} sent, ${line.received_quantity} received); cannot receive ${asked}`
  );
}

/** The receipt's lines in body order, or a 400 listing every problem. */
export function matchReceiptLines(shipmentId: number, lines: readonly ShipmentLine[], entries: readonly ReceiveProductInput[], fieldPrefix: string): ReceiptLine[] {
  const bySku = new Map(lines.map((l) => [l.sku, l]));
  const byProduct = new Map(lines.map((l) => [l.product_id, l]));
  const violations: FieldViolation[] = [];
  const over: { sku: string; left: number; asked: number }[] = [];
  const seen = new Map<number, number>();
  const matched: ReceiptLine[] = [];
  entries.forEach((entry, index) => {
    const field = `${fieldPrefix}[${index}]`;
    let unitItemCost: string | null = null;
    try {
      unitItemCost = costInput(`${field}.unit_item_cost`, entry.unit_item_cost);
    } catch (error) {
      if (!isAppError(error)) throw error;
      violations.push(...error.violations);
    }
    let line: ShipmentLine | undefined;
    if (entry.product_id !== undefined) {
      line = byProduct.get(entry.product_id);
      if (!line) {
        violations.push({ field: `${field}.product_id`, description: `product ${entry.product_id} is not on inbound shipment ${shipmentId}` });
        return;
      }
      if (entry.sku !== undefined && entry.sku !== line.sku) {
        violations.push({ field: `${field}.sku`, description: `"${entry.sku}" is not the SKU of product ${entry.product_id} ("${line.sku}")` });
        return;
      }
    } else if (entry.sku !== undefined) {
      line = bySku.get(entry.sku);
      if (!line) {
        violations.push({ field: `${field}.sku`, description: `"${entry.sku}" is not on inbound shipment ${shipmentId}` });
        return;
      }
    } else {
      violations.push({ field, description: 'needs sku or product_id' });
      return;
    }
    const earlier = seen.get(line.id);
    if (earlier !== undefined) {
      violations.push({ field, description: `names the same line ("${line.sku}") as entry ${earlier}; give each line once per receipt` });
      return;
    }
    seen.set(line.id, index);
    if (entry.quantity > outstandingOf(line)) {
      violations.push({ field: `${field}.quantity`, description: overReceiptMessage(line, entry.quantity) });
      over.push({ sku: line.sku, left: outstandingOf(line), asked: entry.quantity });
      return;
    }
    matched.push({ line, units: entry.quantity, unitItemCost: unitItemCost ?? line.unit_item_cost, field });
  });
  if (violations.length > 0) {
    const refused = invalidFields(violations);
    // Only over-receipts: the console says them line by line; anything else keeps the listed problems.
    throw over.length === violations.length ? refused.because('inbound.over_receipt', { lines: over }) : refused;
  }
  return matched;
}
