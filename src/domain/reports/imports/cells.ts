import type { LineError } from './types.js';

/** Helpers shared by the import types for reading one cell. */

export { skuProblem } from '../../text-limits.js';

/** A whole number in [min, max] written with optional sign and no decimals, or an error message. */
export function parseWholeNumber(text: string, min: number, max: number): { value: number } | { error: string } {
  const t = text.trim();
  if (!/^[+-]?\d+$/.test(t)) return { error: `"${clip(t)}" is not a whole number` };
  const value = Number(t);
  if (!Number.isSafeInteger(value) || value < min || value > max) return { error: `must be from ${min} to ${max}, got ${clip(t)}` };
  return { value };
}

/** Cuts a cell quoted in a message so a huge cell never makes a huge error file. */
export function clip(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

export function lineError(line: number, column: string, message: string): LineError {
  return { line, column, message };
}

