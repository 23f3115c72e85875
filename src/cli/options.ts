import { InvalidArgumentError } from 'commander';

/** Option parsers shared by the operator commands: bad input stops before any database work. */

export function positiveId(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 2147483647) {
    throw new InvalidArgumentError('must be a positive whole number (an id)');
  }
  return Number(value);
}

export function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

/** `a,b` and repeated options both work, like the v1 array query parameters. */
export function commaList(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((s) => s.trim()).filter((s) => s !== '')];
}

/** `--warehouse 3=EAST-01`, repeatable: a warehouse id and the partner's id for it. */
export function warehouseMapping(
  value: string,
  previous: { warehouseId: number; warehouseUniqueId: string }[] = [],
): { warehouseId: number; warehouseUniqueId: string }[] {
  const eq = value.indexOf('=');
  if (eq <= 0 || eq === value.length - 1) throw new InvalidArgumentError('expected <warehouseId>=<warehouseUniqueId>, e.g. 3=EAST-01');
  return [...previous, { warehouseId: positiveId(value.slice(0, eq)), warehouseUniqueId: value.slice(eq + 1) }];
}

/** Where a command prints its result: stdout, or a buffer in tests. */
export type Write = (text: string) => void;
export const writeStdout: Write = (text) => {
  process.stdout.write(text);
};

/** Writes a command's result: indented JSON with --json, else one `key: value` line per field. */
export function printResult(write: Write, result: object, json: boolean | undefined): void {
  if (json) {
    write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const width = Math.max(...Object.keys(result).map((k) => k.length));
  for (const [key, value] of Object.entries(result)) {
    const text = value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
    write(`${key.padEnd(width)}  ${text}\n`);
  }
}
