/**
 * A money amount as v2 renders it (resolutions §7 "v2 encoding"): the stored decimal string with at least two
 * decimals, as the production definitions show it ("13.00", "0.00", "-5.50"); more only when the value has
 * more ("1.255"). Only the rendering pads: amounts are stored exactly as given, never rounded. Anything that
 * is not a plain decimal (nothing stored should be) is returned unchanged rather than guessed at.
 */
export function moneyAmountText(amount: string): string {
  const match = /^(-?\d+)(?:\.(\d*))?$/.exec(amount);
  if (!match) return amount;
  return `${match[1]}.${(match[2] ?? '').padEnd(2, '0')}`;
}
