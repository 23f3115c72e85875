import { parse, type CsvError } from 'csv-parse';
import { NotUtf8Error, Utf8Decoder } from './utf8.js';

/** One record of a CSV file: its cells and the file line it starts on (line 1 is the header). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/** The file cannot be read as CSV at all (not UTF-8, broken quoting, a record too long): a report error. */
export class CsvFileError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
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
 * Bytes that are not UTF-8 and quoting that never closes or is followed by stray characters throw
 * CsvFileError naming the line: csv-parse cannot resynchronise after broken quoting without silently
 * joining or dropping the lines that follow, so such a file is refused whole rather than half-read.
 */
export async function* readCsvRecords(source: AsyncIterable<Uint8Array>, delimiter: string): AsyncGenerator<CsvRecord> {
  const parser = parse({
    bom: true,
    delimiter,
    relax_column_count: true,
    skip_empty_lines: true,
    info: true,
    max_record_size: MAX_RECORD_CHARS,
  });
  const utf8 = new Utf8Decoder();
  let failure: Error | null = null;

  // Bytes are decoded here (not by csv-parse) so that invalid UTF-8 is an error instead of U+FFFD.
  const feed = (async () => {
    try {
      for await (const bytes of source) {
        const text = decodeOrRefuse(() => utf8.decode(bytes));
        // In small pieces, waiting for the consumer between them: csv-parse turns a whole write into records
        // at once, so a 512 KiB write would queue some 20,000 records that live long enough to reach V8's old
        // generation, and a 100,000-line file would then grow the heap by hundreds of megabytes of garbage.
        for (let at = 0; at < text.length; at += FEED_CHARS) {
          if (!parser.write(text.slice(at, at + FEED_CHARS))) {
            await new Promise<void>((resolve) => {
              const done = () => {
                parser.off('drain', done);
                parser.off('close', done);
                resolve();
              };
              parser.on('drain', done);
              parser.on('close', done);
            });
          }
          if (parser.destroyed) return;
        }
      }
      const rest = decodeOrRefuse(() => utf8.end());
      if (rest) parser.write(rest);
      parser.end();
    } catch (error) {
      failure = error as Error;
      parser.destroy(error as Error);
    }
  })();

  let previousEnd = 0;
  let previousEmpty = 0;
  try {
    for await (const output of parser as AsyncIterable<{ record: string[]; info: { lines: number; empty_lines: number } }>) {
      const { record, info } = output;
      const line = previousEnd + 1 + (info.empty_lines - previousEmpty);
      previousEnd = info.lines;
      previousEmpty = info.empty_lines;
      if (record.every((cell) => cell.trim() === '')) continue;
      yield { line, cells: record };
    }
  } catch (error) {
    if (failure) throw failure;
    const csv = error as CsvError & { lines?: number };
    if (typeof csv.code === 'string' && csv.code.startsWith('CSV_')) {
      const line = csv.lines ?? previousEnd + 1;
      throw new CsvFileError(`the file is not valid CSV at line ${line}: ${describeCsvError(csv)}`, line);
    }
    throw error;
  } finally {
    // The consumer may stop early (a canceled report): end the parser so the feeding loop stops too.
    if (!parser.destroyed) parser.destroy();
    await feed;
  }
  if (failure) throw failure;
}

function describeCsvError(error: CsvError): string {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed (a " opens a field that runs to the end of the file)';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'a quoted field is followed by other characters; a " inside a quoted field is written twice ("")';
    case 'CSV_MAX_RECORD_SIZE':
      return `a record is longer than ${MAX_RECORD_CHARS.toLocaleString('en-US')} characters (probably an unclosed quote)`;
    default:
      return error.message;
  }
}

/** Decoded text, or the CsvFileError of a file that is not UTF-8. */
function decodeOrRefuse(decode: () => string): string {
  try {
    return decode();
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    const message = error.atEnd
      ? `the file is not UTF-8 text (it ends inside a character, line ${error.line})`
      : `the file is not UTF-8 text (line ${error.line}): save it as "CSV UTF-8" and upload it again`;
    throw new CsvFileError(message, error.line);
  }
}
