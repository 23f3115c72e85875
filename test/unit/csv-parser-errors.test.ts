import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CsvError, parse, type Options } from 'csv-parse';
import { CsvFileError, MAX_RECORD_CHARS, readCsvRecords, type CsvRecord } from '../../src/domain/reports/csv/read-records.js';
import { PARSER_CODES, describeParserError, type ParsePosition, type ParserCode } from '../../src/domain/reports/csv/parser-errors.js';
import { REPO_ROOT } from '../helpers/repo-root.js';

/**
 * Every error csv-parse can throw ends as a file problem naming a line (issue 22): never an internal error,
 * which would retry an import for minutes and answer a validation with 500.
 */

async function* bytesOf(text: string, pieceBytes = 1 << 16): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += pieceBytes) yield bytes.subarray(at, at + pieceBytes);
}

async function readAll(text: string, delimiter = ','): Promise<{ records: CsvRecord[]; error: unknown }> {
  const records: CsvRecord[] = [];
  try {
    for await (const record of readCsvRecords(bytesOf(text), delimiter)) records.push(record);
    return { records, error: null };
  } catch (error) {
    return { records, error };
  }
}

/** The error csv-parse itself throws or emits for these options (and input, when given). */
async function parserError(options: Record<string, unknown>, input?: string): Promise<unknown> {
  try {
    const parser = parse(options as Options);
    if (input === undefined) return null;
    return await new Promise((resolve) => {
      parser.on('data', () => undefined);
      parser.on('error', resolve);
      parser.on('end', () => resolve(null));
      parser.end(input);
    });
  } catch (error) {
    return error;
  }
}

const position = (over: Partial<ParsePosition> = {}): ParsePosition => ({
  linesParsed: 2,
  emptyLinesParsed: 0,
  header: ['sku', 'warehouse', 'quantity'],
  delimiter: ',',
  maxRecordChars: MAX_RECORD_CHARS,
  ...over,
});

/** Codes that only options readCsvRecords does not set can produce: options (and input) that do, per code. */
const BY_OPTIONS: Record<Exclude<ParserCode, 'INVALID_OPENING_QUOTE' | 'CSV_INVALID_CLOSING_QUOTE' | 'CSV_QUOTE_NOT_CLOSED' | 'CSV_MAX_RECORD_SIZE' | 'CSV_INVALID_ARGUMENT' | 'CSV_UNKNOWN_ERROR'>, [Record<string, unknown>, string?]> = {
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: [{ rtrim: true }, 'sku,warehouse\n"A1" x,Main\n'],
  CSV_RECORD_INCONSISTENT_FIELDS_LENGTH: [{}, 'sku,warehouse,quantity\nA1,Main\n'],
  CSV_RECORD_INCONSISTENT_COLUMNS: [{ columns: true }, 'sku,warehouse,quantity\nA1,Main\n'],
  CSV_INVALID_COLUMN_MAPPING: [{ columns: () => 'sku' }, 'sku,warehouse\nA1,Main\n'],
  CSV_INVALID_COLUMN_DEFINITION: [{ columns: [true] }],
  CSV_OPTION_COLUMNS_MISSING_NAME: [{ columns: [{}] }],
  CSV_INVALID_OPTION_BOM: [{ bom: 'yes' }],
  CSV_INVALID_OPTION_CAST: [{ cast: 'yes' }],
  CSV_INVALID_OPTION_CAST_DATE: [{ cast_date: 'yes' }],
  CSV_INVALID_OPTION_COLUMNS: [{ columns: 'yes' }],
  CSV_INVALID_OPTION_COMMENT: [{ comment: 1 }],
  CSV_INVALID_OPTION_DELIMITER: [{ delimiter: '' }],
  CSV_INVALID_OPTION_DELIMITER_AUTO: [{ delimiter_auto: 'yes' }],
  CSV_INVALID_OPTION_ENCODING: [{ encoding: 1 }],
  CSV_INVALID_OPTION_GROUP_COLUMNS_BY_NAME: [{ group_columns_by_name: 'yes' }],
  CSV_INVALID_OPTION_IGNORE_LAST_DELIMITERS: [{ ignore_last_delimiters: 'yes' }],
  CSV_IGNORE_LAST_DELIMITERS_REQUIRES_COLUMNS: [{ ignore_last_delimiters: true }],
  CSV_INVALID_OPTION_ON_RECORD: [{ on_record: 'yes' }],
  CSV_INVALID_OPTION_RECORD_DELIMITER: [{ record_delimiter: 1 }],
};

test('every code csv-parse throws is mapped (read from its source, so an upgrade that adds one fails here)', () => {
  const lib = path.join(REPO_ROOT, 'node_modules/csv-parse/lib/');
  const sources = [...readdirSync(`${lib}api`).map((f) => `${lib}api/${f}`), `${lib}index.js`, `${lib}index.d.ts`].filter((f) => /\.(js|ts)$/.test(f));
  const thrown = new Set<string>();
  for (const file of sources) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/new CsvError\(\s*"([A-Z_]+)"/g)) thrown.add(match[1]!);
    // The declared codes (some thrown by no code today).
    if (file.endsWith('.d.ts')) for (const match of text.matchAll(/\|\s*"([A-Z_]+)"/g)) thrown.add(match[1]!);
  }
  assert.ok(thrown.has('INVALID_OPENING_QUOTE') && thrown.size > 20, [...thrown].join(', '));
  assert.deepEqual([...thrown].filter((code) => !(PARSER_CODES as string[]).includes(code)), []);
});

test('the codes a file itself can produce end readCsvRecords as CsvFileError at the record\'s line, after the lines before it', async () => {
  const cases: { code: ParserCode; text: string; line: number; before: number[]; message: RegExp }[] = [
    // The stray quote of issue 22: an unquoted value with a " in it.
    { code: 'INVALID_OPENING_QUOTE', text: 'sku,quantity,min\nM1,2,1\nM2 "x",3,1\nM3,1,1\n', line: 3, before: [1, 2], message: /at line 3: a " is inside the unquoted value of column 1 \(sku\), after "M2 "; .*""/ },
    { code: 'CSV_INVALID_CLOSING_QUOTE', text: 'sku,quantity\nM1,2\n"M2"x,3\n', line: 3, before: [1, 2], message: /at line 3: the quoted value of column 1 \(sku\) is followed by other characters/ },
    // A record over two lines: the record's first line is named, and where the parser noticed it.
    { code: 'CSV_INVALID_CLOSING_QUOTE', text: 'sku,title\nM1,"one\ntwo"x\n', line: 2, before: [1], message: /at line 2 \(in the record that starts there, on line 3\): the quoted value of column 2 \(title\)/ },
    // Blank lines before the broken record still count.
    { code: 'CSV_QUOTE_NOT_CLOSED', text: 'sku,quantity\nM1,2\n\n\n"M2,3\nM3,1\n', line: 5, before: [1, 2], message: /at line 5: the quoted value of column 1 \(sku\) is never closed/ },
    { code: 'CSV_MAX_RECORD_SIZE', text: `sku,title\nM1,a\nM2,"${'x'.repeat(MAX_RECORD_CHARS + 1)}"\n`, line: 3, before: [1, 2], message: /at line 3: the record is longer than 1,000,000 characters/ },
  ];
  for (const c of cases) {
    // The parser's own error for the same input has the code this case stands for.
    const raw = (await parserError({ relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_RECORD_CHARS }, c.text)) as { code?: string } | null;
    assert.equal(raw?.code, c.code, c.text.slice(0, 40));
    const { records, error } = await readAll(c.text);
    assert.ok(error instanceof CsvFileError, `${c.code}: ${String(error)}`);
    assert.equal(error.line, c.line, c.code);
    assert.match(error.message, /^the file is not valid CSV at line /);
    assert.match(error.message, c.message);
    assert.equal(error.message, `the file ${error.problem}`);
    assert.deepEqual(records.map((r) => r.line), c.before, c.code);
  }
  // Every line before the stray quote arrives, however far down the file it is.
  const long = `sku,warehouse,quantity\n${'A1,Main,1\n'.repeat(20_000)}A2,Main "x",1\nA3,Main,1\n`;
  const { records, error } = await readAll(long);
  assert.equal(records.length, 20_001);
  assert.ok(error instanceof CsvFileError);
  assert.equal(error.line, 20_002);
  assert.match(error.message, /column 2 \(warehouse\), after "Main "/);
});

test('the codes only other options produce map to a file problem naming a line', async () => {
  for (const [code, [options, input]] of Object.entries(BY_OPTIONS)) {
    const error = await parserError({ relax_column_count: false, ...options }, input);
    assert.ok(error instanceof Error, `${code}: no error`);
    assert.equal((error as { code?: string }).code, code);
    const failure = describeParserError(error, position({ linesParsed: input === undefined ? 0 : 1 }));
    assert.ok(Number.isInteger(failure.line) && failure.line >= 1, code);
    assert.match(failure.problem, new RegExp(`^(is not valid CSV at line ${failure.line}|cannot be read from line 1)`), code);
    assert.doesNotMatch(failure.problem, /undefined|\[object/, `${code}: ${failure.problem}`);
  }
  const settings = describeParserError(await parserError({ delimiter: '' }), position({ delimiter: ';' }));
  assert.equal(settings.line, 1);
  assert.match(settings.problem, /^cannot be read from line 1: the CSV reader refused its settings for delimiter ";" \(CSV_INVALID_OPTION_DELIMITER: /);
  const length = describeParserError(await parserError({}, 'sku,warehouse,quantity\nA1,Main\n'), position({ linesParsed: 1 }));
  assert.equal(length.line, 2);
  assert.match(length.problem, /at line 2: the line has 2 fields but the header has 3/);
  const rtrim = describeParserError(await parserError({ rtrim: true }, 'sku,warehouse\n"A1" x,Main\n'), position({ linesParsed: 1 }));
  assert.match(rtrim.problem, /at line 2: the quoted value of column 1 \(sku\) is followed by other characters/);
});

test('errors no input can produce, and errors without a known code, still name a line', async () => {
  const argument = await (async () => {
    try {
      (parse as unknown as (...args: unknown[]) => unknown)(42);
      return null;
    } catch (error) {
      return error;
    }
  })();
  assert.equal((argument as { code?: string }).code, 'CSV_INVALID_ARGUMENT');
  assert.match(describeParserError(argument, position()).problem, /^cannot be read from line 1: the CSV reader refused its settings/);

  const unknown = describeParserError(new CsvError('CSV_UNKNOWN_ERROR', 'something broke'), position());
  assert.deepEqual(unknown, { line: 3, problem: 'is not valid CSV at line 3: the CSV reader stopped here (CSV_UNKNOWN_ERROR: something broke)' });
  // Plain errors: an option check's, the parser's buffer guard, a code a later version may add.
  const plain = await parserError({ from: -1 });
  assert.ok(plain instanceof Error && !('code' in plain));
  for (const error of [plain, new Error('INVALID_BUFFER_STATE'), Object.assign(new Error('new kind of failure'), { code: 'CSV_SOMETHING_NEW', lines: 7 }), 'a string', null]) {
    const failure = describeParserError(error, position({ linesParsed: 5 }));
    assert.equal(failure.line, 6, String(error));
    assert.match(failure.problem, /^is not valid CSV at line 6(?: \(in the record that starts there, on line 7\))?: the CSV reader stopped here \(/);
  }
});

test('a failure of the file store passes through as it is (worth a retry), not as a file problem', async () => {
  const failing = (async function* () {
    yield Buffer.from('sku,quantity\nA1,1\nA2,');
    throw new Error('database unavailable');
  })();
  const lines: number[] = [];
  await assert.rejects(
    async () => {
      for await (const record of readCsvRecords(failing, ',')) lines.push(record.line);
    },
    (error: unknown) => error instanceof Error && !(error instanceof CsvFileError) && error.message === 'database unavailable',
  );
  assert.deepEqual(lines, [1, 2]);
});
