import type { CsvErrorCode } from 'csv-parse';
import { clip } from '../imports/cells.js';

/**
 * Codes csv-parse 7 throws that its CsvErrorCode type leaves out (read from lib/api/normalize_options.js,
 * lib/api/index.js): without them here an error such as INVALID_OPENING_QUOTE once escaped as an internal
 * error, and an import was retried for minutes instead of refused at once.
 */
type UntypedParserCode =
  | 'CSV_IGNORE_LAST_DELIMITERS_REQUIRES_COLUMNS'
  | 'CSV_INVALID_OPTION_DELIMITER_AUTO'
  | 'CSV_INVALID_OPTION_ENCODING'
  | 'CSV_INVALID_OPTION_IGNORE_LAST_DELIMITERS'
  | 'CSV_INVALID_OPTION_RECORD_DELIMITER';
export type ParserCode = CsvErrorCode | UntypedParserCode;

/** Where the reader was when the parser failed; the parser's error adds the rest. */
export interface ParsePosition {
  /** File line the last record parsed ended on (0 before the first record). */
  linesParsed: number;
  /** Empty lines the parser had skipped up to that record. */
  emptyLinesParsed: number;
  /** The header's cells once parsed, to name the column of a field the parser points at. */
  header: readonly string[] | null;
  delimiter: string;
  maxRecordChars: number;
}

/** A file the parser refused: what is wrong, and the file line of the record it is in (1 is the header). */
export interface ParserFailure {
  line: number;
  /** Completes "the file …": "is not valid CSV at line 3: …". */
  problem: string;
}

/** The fields csv-parse copies onto its errors (CsvError contexts: the parser's info and the field's). */
interface ParserErrorFields {
  code?: unknown;
  message?: unknown;
  lines?: unknown;
  empty_lines?: unknown;
  column?: unknown;
  field?: unknown;
  record?: unknown;
}

interface Where {
  line: number;
  /** "column 2 (warehouse)", or "a column" when the parser does not say which. */
  field: string;
  position: ParsePosition;
}

type Kind = 'record' | 'header' | 'settings';
type Describe = (error: ParserErrorFields, where: Where) => string;

const QUOTE_TWICE = 'a value holding " is put in quotes whole, each " in it written twice, as in "12"" pipe"';
const closingQuote: Describe = (_e, w) => `the quoted value of ${w.field} is followed by other characters before the next delimiter; ${QUOTE_TWICE}`;
const otherLength: Describe = (e, w) =>
  `the line has ${Array.isArray(e.record) ? `${e.record.length} fields` : 'another number of fields'} but the header has ${w.position.header?.length ?? 'another number'}; check the line's delimiters and quotes`;
const headerNames: Describe = (e) => `the header cannot be read as column names (${parserText(e)})`;
const settings: Describe = (e, w) => `the CSV reader refused its settings for delimiter ${JSON.stringify(w.position.delimiter)} (${parserText(e)})`;

/**
 * Every code csv-parse 7 can throw, and what a seller reads for it. Those of `record` kind come from the
 * file with the options readCsvRecords sets; the others only with options it does not set (columns,
 * rtrim, strict column counts…) or a bad delimiter, and are mapped so that a future option or a parser
 * change still ends as a file error naming a line, never as an internal error and a retried job.
 */
const CODES: Record<ParserCode, { kind: Kind; describe: Describe }> = {
  INVALID_OPENING_QUOTE: {
    kind: 'record',
    describe: (e, w) => `a " is inside the unquoted value of ${w.field}${typeof e.field === 'string' && e.field !== '' ? `, after ${JSON.stringify(clip(e.field))}` : ''}; ${QUOTE_TWICE}`,
  },
  CSV_INVALID_CLOSING_QUOTE: { kind: 'record', describe: closingQuote },
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: { kind: 'record', describe: closingQuote },
  CSV_QUOTE_NOT_CLOSED: {
    kind: 'record',
    describe: (_e, w) => `the quoted value of ${w.field} is never closed (its " opens a value that runs to the end of the file)`,
  },
  CSV_MAX_RECORD_SIZE: {
    kind: 'record',
    describe: (_e, w) => `the record is longer than ${w.position.maxRecordChars.toLocaleString('en-US')} characters (probably a " that is never closed)`,
  },
  CSV_RECORD_INCONSISTENT_FIELDS_LENGTH: { kind: 'record', describe: otherLength },
  CSV_RECORD_INCONSISTENT_COLUMNS: { kind: 'record', describe: otherLength },
  CSV_INVALID_COLUMN_MAPPING: { kind: 'header', describe: headerNames },
  CSV_INVALID_COLUMN_DEFINITION: { kind: 'header', describe: headerNames },
  CSV_OPTION_COLUMNS_MISSING_NAME: { kind: 'header', describe: headerNames },
  CSV_INVALID_ARGUMENT: { kind: 'settings', describe: settings },
  CSV_INVALID_OPTION_BOM: { kind: 'settings', describe: settings },
  CSV_INVALID_OPTION_CAST: { kind: 'settings', describe: settings },
  CSV_INVALID_OPTION_CAST_DATE: { kind: 'settings', describe: settings },
  CSV_INVALID_OPTION_COLUMNS: { kind: 'settings', describe: settings },
  CSV_INVALID_OPTION_COMMENT: { kind: 'settings', describe: settings },
  CSV_INVALID_OPTION_DELIMITER: { kind: 'settings', describe: settings },
  CSV_INVALID_OPTION_DELIMITER_AUTO: { kind: 'settings', describe: settings },
  CSV_INVALID_OPTION_ENCODING: { kind: 'settings', describe: settings },
  CSV_INVALID_OPTION_GROUP_COLUMNS_BY_NAME: { kind: 'settings', describe: settings },
  CSV_INVALID_OPTION_IGNORE_LAST_DELIMITERS: { kind: 'settings', describe: settings },
  CSV_INVALID_OPTION_ON_RECORD: { kind: 'settings', describe: settings },
  CSV_INVALID_OPTION_RECORD_DELIMITER: { kind: 'settings', describe: settings },
  CSV_IGNORE_LAST_DELIMITERS_REQUIRES_COLUMNS: { kind: 'settings', describe: settings },
  // Declared by csv-parse's types, thrown by none of its code today.
  CSV_UNKNOWN_ERROR: { kind: 'record', describe: (e) => `the CSV reader stopped here (${parserText(e)})` },
};

/** The codes mapped above (the unit test produces each one). */
export const PARSER_CODES = Object.keys(CODES) as ParserCode[];

/**
 * What a seller reads for anything the CSV parser threw, with the line of the record it is in. An error
 * without a known code (a plain Error from an option check, a future code) still becomes a file problem
 * naming the line, so a file can never make an import retry or answer 500.
 */
export function describeParserError(thrown: unknown, position: ParsePosition): ParserFailure {
  const error: ParserErrorFields = typeof thrown === 'object' && thrown !== null ? (thrown as ParserErrorFields) : { message: String(thrown) };
  const known = typeof error.code === 'string' && Object.hasOwn(CODES, error.code) ? CODES[error.code as ParserCode] : null;
  const kind = known?.kind ?? 'record';
  // The record starts on the line after the last one parsed, past the empty lines skipped since.
  const skipped = typeof error.empty_lines === 'number' ? Math.max(0, error.empty_lines - position.emptyLinesParsed) : 0;
  const line = kind === 'record' ? position.linesParsed + 1 + skipped : 1;
  const where: Where = { line, field: fieldName(error, line, position), position };
  if (kind === 'settings') return { line, problem: `cannot be read from line 1: ${known!.describe(error, where)}` };
  const description = known ? known.describe(error, where) : `the CSV reader stopped here (${parserText(error)})`;
  // The parser's own line is where it noticed the problem: inside a record that spans lines, name both.
  const noticed = typeof error.lines === 'number' && error.code !== 'CSV_QUOTE_NOT_CLOSED' ? error.lines : line;
  const inside = noticed > line ? ` (in the record that starts there, on line ${noticed})` : '';
  return { line, problem: `is not valid CSV at line ${line}${inside}: ${description}` };
}

/** "column 2 (warehouse)" from the 0-based field index the parser reports, when it does. */
function fieldName(error: ParserErrorFields, line: number, position: ParsePosition): string {
  if (typeof error.column !== 'number' || !Number.isInteger(error.column) || error.column < 0) return 'a column';
  const name = line > 1 ? position.header?.[error.column] : undefined;
  return `column ${error.column + 1}${name !== undefined && name.trim() !== '' ? ` (${clip(name.trim(), 40)})` : ''}`;
}

/** The parser's own words, with its code, for the cases a seller's words cannot be more precise about. */
function parserText(error: ParserErrorFields): string {
  const message = typeof error.message === 'string' && error.message !== '' ? clip(error.message, 160) : 'no message';
  return typeof error.code === 'string' ? `${error.code}: ${message}` : message;
}
