import { parse, type Parser } from 'csv-parse';
import { describeParserError, type ParsePosition } from './parser-errors.js';
import { TurnBudget } from '../../../lib/turn-budget.js';
import { NotUtf8Error, Utf8Decoder } from './utf8.js';

/** One record of a CSV file: its cells and the file line it starts on (line 1 is the header). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/**
 * The file cannot be read as CSV at all (not UTF-8, broken quoting, a record too long, not stored): a report
 * error. `problem` completes "the file …" (the message), so an HTTP answer can put it after a field name.
 */
export class CsvFileError extends Error {
  constructor(
    readonly problem: string,
    readonly line: number,
  ) {
    super(`the file ${problem}`);
    this.name = 'CsvFileError';
  }
}

/** Characters handed to the parser at a time. */
const FEED_CHARS = 4 * 1024;

/** Longest record accepted, in characters: a larger one is a broken file (an unclosed quote), not data. */
export const MAX_RECORD_CHARS = 1_000_000;

/**
 * Reads CSV records from bytes, as real-world files come: a UTF-8 BOM is dropped, CRLF and LF both end a
 * line, quoted fields may hold the delimiter, quotes and line breaks. Lines that are empty or hold only
 * delimiters and blanks are not records (spreadsheets leave them at the end of files). Rows may be ragged:
 * the caller compares each record's cell count with the header's.
 *
 * Bytes that are not UTF-8, and anything the parser throws (quoting that never closes, a stray quote, a
 * record too long…: parser-errors.ts), throw CsvFileError naming the line, after every record before it:
 * csv-parse cannot resynchronise after broken quoting without silently joining or dropping the lines that
 * follow, so such a file is refused whole rather than half-read. Errors of the source itself (the file
 * store) pass through as they are: those are worth a retry, a broken file is not.
 *
 * The text goes to the parser in small pieces, each piece's records handed out before the next is parsed,
 * so only a piece's records are ever held (a 512 KiB write would queue some 20,000 records, long-lived
 * enough to reach V8's old generation). Every pass over a file runs through here, so this is also where it
 * gives the event loop a turn every few milliseconds (on SQLite the file store's reads complete
 * synchronously, and a 100,000-line file would otherwise be read through in one stretch).
 */
export async function* readCsvRecords(source: AsyncIterable<Uint8Array>, delimiter: string): AsyncGenerator<CsvRecord> {
  const position: ParsePosition = { linesParsed: 0, emptyLinesParsed: 0, header: null, delimiter, maxRecordChars: MAX_RECORD_CHARS };
  const refuse = (error: unknown) => {
    const { line, problem } = describeParserError(error, position);
    return new CsvFileError(problem, line);
  };
  let parsed: CsvRecord[] = [];
  let parser: Parser;
  try {
    parser = parse({
      bom: true,
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD_CHARS,
      // Records are taken here, as the parser finds them, instead of from its readable side, which drops
      // the records it still buffers when a later write fails: the lines before a broken one all arrive.
      on_record: (cells: string[], info) => {
        const line = position.linesParsed + 1 + (info.empty_lines - position.emptyLinesParsed);
        position.linesParsed = info.lines;
        position.emptyLinesParsed = info.empty_lines;
        if (cells.some((cell) => cell.trim() !== '')) {
          position.header ??= cells;
          parsed.push({ line, cells });
        }
        return null;
      },
    });
  } catch (error) {
    throw refuse(error);
  }
  // The write callbacks carry each failure; an 'error' event without a listener would end the process.
  parser.on('error', () => undefined);
  const feed = (text: string | null) =>
    new Promise<unknown>((resolve) => {
      if (text === null) parser.end((error?: Error | null) => resolve(error ?? null));
      else parser.write(text, (error?: Error | null) => resolve(error ?? null));
    });
  const utf8 = new Utf8Decoder();
  const budget = new TurnBudget();
  try {
    for await (const bytes of source) {
      const text = decodeOrRefuse(() => utf8.decode(bytes));
      for (let at = 0; at < text.length; at += FEED_CHARS) {
        const failed = await feed(text.slice(at, at + FEED_CHARS));
        const records = parsed;
        parsed = [];
        yield* records;
        if (failed) throw refuse(failed);
        await budget.pause();
      }
    }
    const rest = decodeOrRefuse(() => utf8.end());
    let failed = rest ? await feed(rest) : null;
    if (!failed) failed = await feed(null);
    yield* parsed;
    if (failed) throw refuse(failed);
  } finally {
    parser.destroy();
  }
}

/** Decoded text, or the CsvFileError of a file that is not UTF-8. */
function decodeOrRefuse(decode: () => string): string {
  try {
    return decode();
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    const problem = error.atEnd
      ? `is not UTF-8 text (it ends inside a character, line ${error.line})`
      : `is not UTF-8 text (line ${error.line}): save it as "CSV UTF-8" and upload it again`;
    throw new CsvFileError(problem, error.line);
  }
}
