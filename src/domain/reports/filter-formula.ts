/**
 * The `filter` formula of a catalog export (service-api §2.9): a small condition language a seller writes to
 * choose which products an export holds. Names and types are checked while parsing, so a formula that
 * compiles can only answer true or false for a product; it never fails half-way through an export.
 * Partners read the language in docs/partners/report-filters.md: keep the two in step.
 *
 * Parsing is one pass over the text (a lexer with one token of lookahead and a recursive-descent parser).
 * The text is capped at MAX_FILTER_LENGTH and nesting at MAX_NESTING, so neither the parser nor the compiled
 * predicate can run out of stack, whatever a seller sends.
 */
import { parseDateOrTimestamp } from '../../lib/time.js';

export type FilterFieldType = 'string' | 'number' | 'boolean' | 'timestamp';
export interface FilterField { name: string; type: FilterFieldType }
/** One product as the filter sees it: field values by field name (null = blank) and attribute values by attribute id. */
export interface FilterRecord { fields: Record<string, string | number | boolean | null>; attributes: Record<string, string> }
export interface CompiledFilter {
  matches(record: FilterRecord): boolean;
  /** attribute ids the formula reads */
  attributeIds: string[];
  /** the formula as given */
  source: string;
}

export class FilterFormulaError extends Error {
  override readonly name = 'FilterFormulaError';
  /** 1-based character position of the problem */
  readonly position: number;

  constructor(message: string, position: number) {
    super(message);
    this.position = position;
  }
}

export const MAX_FILTER_LENGTH = 4000;
/** Parentheses and NOTs open at once; far beyond any hand-written formula, far below the stack's limit. */
const MAX_NESTING = 64;
/** Known fields an unknown-field message lists. */
const LISTED_FIELDS = 10;

// ---------------------------------------------------------------------------------------------- source & errors

/** The formula text, and the one way to fail at a place in it. */
class Source {
  constructor(readonly text: string) {}

  fail(offset: number, message: (at: string) => string): never {
    // Offsets are UTF-16 indexes; a seller counts characters, and an emoji is one character to them.
    const position = Array.from(this.text.slice(0, offset)).length + 1;
    throw new FilterFormulaError(message(`at position ${position}`), position);
  }
}

// ---------------------------------------------------------------------------------------------- lexer

interface Token {
  kind: 'word' | 'string' | 'number' | 'symbol' | 'end';
  /** the token as written */
  source: string;
  /** a string's text without its quotes; the source for every other kind */
  value: string;
  offset: number;
}

const WHITESPACE = /\s*/y;
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /-?(?:\d+(?:\.\d+)?|\.\d+)/y;
const SYMBOL = /<=|>=|<>|!=|[=<>(),]/y;
const WORD_OR_NUMBER_CHAR = /[A-Za-z0-9_.]/;

class Lexer {
  private offset = 0;
  private lookahead: Token | null = null;

  constructor(private readonly source: Source) {}

  peek(): Token {
    this.lookahead ??= this.scan();
    return this.lookahead;
  }

  next(): Token {
    const token = this.peek();
    this.lookahead = null;
    return token;
  }

  /** Whether "(" comes next, without reading a token (that could fail on a problem further right). */
  opensParenthesis(): boolean {
    if (this.lookahead) return isSymbol(this.lookahead, '(');
    this.skipWhitespace();
    return this.source.text[this.offset] === '(';
  }

  private skipWhitespace(): void {
    WHITESPACE.lastIndex = this.offset;
    WHITESPACE.test(this.source.text);
    this.offset = WHITESPACE.lastIndex;
  }

  private scan(): Token {
    this.skipWhitespace();
    const { text } = this.source;
    const start = this.offset;
    if (start >= text.length) return { kind: 'end', source: '', value: '', offset: start };
    const char = text[start]!;
    if (char === '"' || char === "'") return this.scanString(start, char);
    for (const [kind, pattern] of [['word', WORD], ['number', NUMBER], ['symbol', SYMBOL]] as const) {
      pattern.lastIndex = start;
      const match = pattern.exec(text);
      if (!match) continue;
      this.offset = pattern.lastIndex;
      if (kind === 'number' && WORD_OR_NUMBER_CHAR.test(text[this.offset] ?? '')) this.malformedNumber(start);
      return { kind, source: match[0], value: match[0], offset: start };
    }
    const shown = String.fromCodePoint(text.codePointAt(start)!);
    const hint = '“”‘’„«»'.includes(shown) ? '; write quotes as plain " or \'' : '';
    return this.source.fail(start, (at) => `unexpected character ${JSON.stringify(shown)} ${at}${hint}`);
  }

  private scanString(start: number, quote: string): Token {
    const { text } = this.source;
    let value = '';
    let from = start + 1;
    for (;;) {
      const close = text.indexOf(quote, from);
      if (close < 0) {
        return this.source.fail(start, (at) =>
          `unterminated text ${at}: end it with ${quote} (a ${quote} inside the text is written twice: ${quote}${quote})`);
      }
      value += text.slice(from, close);
      if (text[close + 1] !== quote) {
        this.offset = close + 1;
        return { kind: 'string', source: text.slice(start, close + 1), value, offset: start };
      }
      value += quote;
      from = close + 2;
    }
  }

  private malformedNumber(start: number): never {
    const rest = /[A-Za-z0-9_.-]*/y;
    rest.lastIndex = start;
    const written = rest.exec(this.source.text)![0];
    return this.source.fail(start, (at) => `malformed number ${JSON.stringify(written)} ${at}; write numbers as 12, -3.5 or .5`);
  }
}

function isWord(token: Token, keyword: string): boolean {
  return token.kind === 'word' && token.value.toUpperCase() === keyword;
}

function isSymbol(token: Token, symbol: string): boolean {
  return token.kind === 'symbol' && token.value === symbol;
}

function describe(token: Token): string {
  const shown = token.source.length > 40 ? `${token.source.slice(0, 37)}…` : token.source;
  switch (token.kind) {
    case 'end': return 'the end of the formula';
    case 'string': return `the text ${shown}`;
    case 'number': return `the number ${shown}`;
    case 'symbol': return `"${shown}"`;
    case 'word': return shown;
  }
}

function found(token: Token): string {
  return token.kind === 'end' ? 'the formula ends there' : `found ${describe(token)}`;
}

// ---------------------------------------------------------------------------------------------- value types

/**
 * Every value is compared through a key: folded text for text (so comparisons ignore case), a number for
 * numbers, 1/0 for booleans and epoch milliseconds for timestamps. null is blank.
 */
type Key = string | number;
type StoredValue = string | number | boolean | null | undefined;

interface ValueType {
  /** completes "price is …" */
  noun: string;
  /** what to compare it with instead, in a mismatch message */
  expected: string;
  ordered: boolean;
  text: boolean;
  /** The stored value's key; null when blank (a stored value the type cannot read counts as blank too). */
  read(value: StoredValue): Key | null;
  /** The literal's key; null when the literal does not fit the type. */
  literal(token: Token): Key | null;
}

const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

function readDecimal(text: string): number | null {
  const trimmed = text.trim();
  // Number only orders the values; they are never computed with, so a float's rounding cannot leak out.
  return DECIMAL.test(trimmed) ? Number(trimmed) : null;
}

function readInstant(text: string): number | null {
  // A plain date is midnight UTC of that day; a date-time must carry its zone (resolutions §0).
  const parsed = parseDateOrTimestamp(text);
  return parsed ? parsed.getTime() : null;
}

const TEXT: ValueType = {
  noun: 'text',
  expected: 'a value in quotes',
  ordered: true,
  text: true,
  read: (value) => (value === null || value === undefined || value === '' ? null : String(value).toLowerCase()),
  literal: (token) => (token.kind === 'string' ? token.value.toLowerCase() : null),
};

const VALUE_TYPES: Record<FilterFieldType, ValueType> = {
  string: TEXT,
  number: {
    noun: 'a number',
    expected: 'a number',
    ordered: true,
    text: false,
    read: (value) => (typeof value === 'number' ? (Number.isFinite(value) ? value : null)
      : typeof value === 'string' ? readDecimal(value) : null),
    literal: (token) => (token.kind === 'number' ? Number(token.value)
      : token.kind === 'string' ? readDecimal(token.value) : null),
  },
  boolean: {
    noun: 'TRUE or FALSE',
    expected: 'TRUE or FALSE',
    ordered: false,
    text: false,
    read: (value) => {
      if (typeof value === 'boolean') return value ? 1 : 0;
      const lower = typeof value === 'string' ? value.toLowerCase() : '';
      return lower === 'true' ? 1 : lower === 'false' ? 0 : null;
    },
    literal: (token) => (isWord(token, 'TRUE') ? 1 : isWord(token, 'FALSE') ? 0 : null),
  },
  timestamp: {
    noun: 'a timestamp',
    expected: 'a date or a date-time with its zone in quotes, such as "2026-01-31" or "2026-01-31T09:30:00Z"',
    ordered: true,
    text: false,
    read: (value) => (typeof value === 'number' ? (Number.isFinite(value) ? value : null)
      : typeof value === 'string' && value !== '' ? readInstant(value) : null),
    literal: (token) => (token.kind === 'string' ? readInstant(token.value) : null),
  },
};

function order(a: Key, b: Key): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------- predicates

type Predicate = (record: FilterRecord) => boolean;
type Reader = (record: FilterRecord) => Key | null;

interface Operand { label: string; type: ValueType; read: Reader }

/** Own properties only: an attribute id such as "constructor" must not find Object.prototype's. */
function own<T>(values: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(values, key) ? values[key] : undefined;
}

/** Blank satisfies no comparison except "not equal". */
function comparison(read: Reader, operator: string, literal: Key): Predicate {
  switch (operator) {
    case '!=':
    case '<>': return (record) => { const key = read(record); return key === null || order(key, literal) !== 0; };
    case '<': return (record) => { const key = read(record); return key !== null && order(key, literal) < 0; };
    case '<=': return (record) => { const key = read(record); return key !== null && order(key, literal) <= 0; };
    case '>': return (record) => { const key = read(record); return key !== null && order(key, literal) > 0; };
    case '>=': return (record) => { const key = read(record); return key !== null && order(key, literal) >= 0; };
    default: return (record) => { const key = read(record); return key !== null && order(key, literal) === 0; };
  }
}

function textMatch(read: Reader, operator: string, needle: string): Predicate {
  const test = operator === 'CONTAINS' ? (key: string) => key.includes(needle)
    : operator === 'STARTS WITH' ? (key: string) => key.startsWith(needle)
      : (key: string) => key.endsWith(needle);
  return (record) => { const key = read(record); return typeof key === 'string' && test(key); };
}

// ---------------------------------------------------------------------------------------------- parser

const COMPARISON_SYMBOLS = new Set(['=', '!=', '<>', '<', '<=', '>', '>=']);
const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IN', 'IS', 'BLANK', 'CONTAINS', 'STARTS', 'ENDS', 'WITH', 'TRUE', 'FALSE']);

/**
 * formula   := or END
 * or        := and (OR and)*
 * and       := not (AND not)*
 * not       := NOT not | "(" or ")" | condition
 * condition := operand [comparison]          (without a comparison, only for a boolean field)
 */
class Parser {
  readonly attributeIds = new Set<string>();
  private depth = 0;
  private readonly lexer: Lexer;
  /** by lower-case name; the first of two names differing only in case wins */
  private readonly byName = new Map<string, FilterField>();

  constructor(private readonly source: Source, private readonly fields: readonly FilterField[]) {
    this.lexer = new Lexer(source);
    for (const field of fields) if (!this.byName.has(field.name.toLowerCase())) this.byName.set(field.name.toLowerCase(), field);
  }

  formula(): Predicate {
    const start = this.lexer.peek();
    if (start.kind === 'end') return this.source.fail(0, (at) => `the filter is empty ${at}; write at least one condition`);
    const predicate = this.or();
    const token = this.lexer.peek();
    if (token.kind === 'end') return predicate;
    if (isSymbol(token, ')')) return this.source.fail(token.offset, (at) => `unbalanced parentheses: the ")" ${at} closes nothing`);
    return this.source.fail(token.offset, (at) => `expected AND, OR or the end of the formula ${at}; ${found(token)}`);
  }

  private or(): Predicate {
    const parts = [this.and()];
    while (isWord(this.lexer.peek(), 'OR')) {
      this.lexer.next();
      parts.push(this.and());
    }
    // A flat list, not a chain of pairs: a long OR must not deepen the predicate's calls.
    return parts.length === 1 ? parts[0]! : (record) => parts.some((part) => part(record));
  }

  private and(): Predicate {
    const parts = [this.not()];
    while (isWord(this.lexer.peek(), 'AND')) {
      this.lexer.next();
      parts.push(this.not());
    }
    return parts.length === 1 ? parts[0]! : (record) => parts.every((part) => part(record));
  }

  private not(): Predicate {
    const token = this.lexer.peek();
    if (isWord(token, 'NOT')) {
      this.lexer.next();
      this.enter(token);
      const inner = this.not();
      this.depth--;
      return (record) => !inner(record);
    }
    if (isSymbol(token, '(')) {
      this.lexer.next();
      this.enter(token);
      const inner = this.or();
      this.close(token, 'AND, OR or ")"');
      this.depth--;
      return inner;
    }
    return this.condition();
  }

  private enter(token: Token): void {
    this.depth++;
    if (this.depth <= MAX_NESTING) return;
    this.source.fail(token.offset, (at) =>
      `the formula nests too deeply ${at}: at most ${MAX_NESTING} parentheses and NOTs can be open at once`);
  }

  private close(open: Token, expected: string): void {
    const token = this.lexer.next();
    if (isSymbol(token, ')')) return;
    if (token.kind === 'end') {
      this.source.fail(open.offset, (at) => `unbalanced parentheses: the "(" ${at} is never closed; add a ")"`);
    }
    this.source.fail(token.offset, (at) => `expected ${expected} ${at}; ${found(token)}`);
  }

  private condition(): Predicate {
    const operand = this.operand();
    const token = this.lexer.peek();
    if (token.kind === 'symbol' && COMPARISON_SYMBOLS.has(token.value)) return this.comparison(operand);
    const keyword = token.kind === 'word' ? token.value.toUpperCase() : '';
    if (keyword === 'CONTAINS' || keyword === 'STARTS' || keyword === 'ENDS') return this.textMatch(operand);
    if (keyword === 'IN') return this.inList(operand);
    if (keyword === 'IS') return this.isBlank(operand);
    if (operand.type === VALUE_TYPES.boolean) return comparison(operand.read, '=', 1);
    const hint = keyword === 'NOT' ? `; to negate a condition put NOT before it, as in NOT ${operand.label} IN ("a", "b")` : '';
    return this.source.fail(token.offset, (at) => `expected a comparison after ${operand.label} ${at}; ${found(token)}${hint}`);
  }

  private operand(): Operand {
    const token = this.lexer.next();
    if (token.kind === 'word') {
      const name = token.value.toLowerCase();
      const opensParenthesis = this.lexer.opensParenthesis();
      if (name === 'attribute' && opensParenthesis) return this.attribute();
      const field = this.byName.get(name);
      if (field) {
        const type = VALUE_TYPES[field.type];
        return { label: field.name, type, read: (record) => type.read(own(record.fields, field.name)) };
      }
      if (opensParenthesis) {
        this.source.fail(token.offset, (at) =>
          `unknown function ${JSON.stringify(token.value)} ${at}; the only function is attribute("<attribute id>")`);
      }
      if (!KEYWORDS.has(token.value.toUpperCase())) {
        this.source.fail(token.offset, (at) => `unknown field ${JSON.stringify(token.value)} ${at}; known fields: ${this.knownFields()}`);
      }
    }
    return this.source.fail(token.offset, (at) =>
      `expected a condition ${at} (a field, attribute("<attribute id>"), NOT or "("); ${found(token)}`);
  }

  private knownFields(): string {
    if (this.fields.length === 0) return 'none';
    const listed = this.fields.slice(0, LISTED_FIELDS).map((field) => field.name).join(', ');
    const more = this.fields.length - LISTED_FIELDS;
    return more > 0 ? `${listed} and ${more} more` : listed;
  }

  private attribute(): Operand {
    const open = this.lexer.next();
    const id = this.lexer.next();
    if (id.kind !== 'string') {
      this.source.fail(id.offset, (at) => `expected the attribute id in quotes ${at}, as in attribute("color"); ${found(id)}`);
    }
    if (id.value === '') {
      this.source.fail(id.offset, (at) => `the attribute id ${at} is empty; write it between the quotes, as in attribute("color")`);
    }
    this.close(open, '")" after the attribute id');
    this.attributeIds.add(id.value);
    return { label: `attribute(${id.source})`, type: TEXT, read: (record) => TEXT.read(own(record.attributes, id.value)) };
  }

  private comparison(operand: Operand): Predicate {
    const operator = this.lexer.next();
    if (!operand.type.ordered && !['=', '!=', '<>'].includes(operator.value)) {
      this.source.fail(operator.offset, (at) =>
        `${operand.label} is ${operand.type.noun}; compare it with = or !=, not ${operator.value} ${at}`);
    }
    return comparison(operand.read, operator.value, this.literal(operand, `after ${operator.value}`));
  }

  private textMatch(operand: Operand): Predicate {
    const first = this.lexer.next();
    let operator = first.value.toUpperCase();
    if (operator !== 'CONTAINS') {
      const withToken = this.lexer.next();
      if (!isWord(withToken, 'WITH')) {
        this.source.fail(withToken.offset, (at) => `expected WITH after ${first.value} ${at}; ${found(withToken)}`);
      }
      operator += ' WITH';
    }
    if (!operand.type.text) {
      this.source.fail(first.offset, (at) => `${operand.label} is ${operand.type.noun}; ${operator} ${at} works only on text`);
    }
    return textMatch(operand.read, operator, String(this.literal(operand, `after ${operator}`)));
  }

  private inList(operand: Operand): Predicate {
    this.lexer.next();
    const open = this.lexer.next();
    if (!isSymbol(open, '(')) {
      this.source.fail(open.offset, (at) => `expected "(" after IN ${at}, as in IN ("a", "b"); ${found(open)}`);
    }
    const keys = new Set<Key>();
    for (;;) {
      keys.add(this.literal(operand, 'in the IN list'));
      const separator = this.lexer.next();
      if (isSymbol(separator, ')')) break;
      if (isSymbol(separator, ',')) continue;
      if (separator.kind === 'end') {
        this.source.fail(open.offset, (at) => `unbalanced parentheses: the "(" ${at} is never closed; add a ")"`);
      }
      this.source.fail(separator.offset, (at) => `expected "," or ")" in the IN list ${at}; ${found(separator)}`);
    }
    return (record) => { const key = operand.read(record); return key !== null && keys.has(key); };
  }

  private isBlank(operand: Operand): Predicate {
    this.lexer.next();
    let token = this.lexer.next();
    const negated = isWord(token, 'NOT');
    if (negated) token = this.lexer.next();
    if (!isWord(token, 'BLANK')) {
      this.source.fail(token.offset, (at) => `expected BLANK or NOT BLANK after IS ${at}; ${found(token)}`);
    }
    return negated ? (record) => operand.read(record) !== null : (record) => operand.read(record) === null;
  }

  private literal(operand: Operand, where: string): Key {
    const token = this.lexer.next();
    if (token.kind !== 'string' && token.kind !== 'number' && !isWord(token, 'TRUE') && !isWord(token, 'FALSE')) {
      this.source.fail(token.offset, (at) =>
        `expected a value ${where} ${at} (text in quotes, a number, TRUE or FALSE); ${found(token)}`);
    }
    if (token.kind === 'string' && token.value === '') {
      // Blank matches no comparison and every value differs from "", so the seller surely means IS BLANK.
      this.source.fail(token.offset, (at) =>
        `the empty value ${at} never matches; to test for a missing value write ${operand.label} IS BLANK or ${operand.label} IS NOT BLANK`);
    }
    const key = operand.type.literal(token);
    if (key !== null) return key;
    return this.source.fail(token.offset, (at) =>
      `${operand.label} is ${operand.type.noun}; compare it with ${operand.type.expected}, not ${describe(token)} ${at}`);
  }
}

// ---------------------------------------------------------------------------------------------- entry point

/** Compiles a seller's formula against the fields an export offers; throws FilterFormulaError on any problem. */
export function parseFilterFormula(text: string, fields: readonly FilterField[]): CompiledFilter {
  const source = new Source(text);
  refuseOverLength(source);
  const parser = new Parser(source, fields);
  const matches = parser.formula();
  return { matches, attributeIds: [...parser.attributeIds], source: text };
}

function refuseOverLength(source: Source): void {
  // UTF-16 length bounds the character count from above, so most formulas need no counting.
  if (source.text.length <= MAX_FILTER_LENGTH) return;
  let characters = 0;
  let offset = 0;
  for (const character of source.text) {
    characters++;
    if (characters > MAX_FILTER_LENGTH) {
      source.fail(offset, (at) =>
        `the filter is longer than ${MAX_FILTER_LENGTH} characters and goes past the limit ${at}; shorten it (an IN list is shorter than many ORs)`);
    }
    offset += character.length;
  }
}
