import { decodedView, originalRange, type DecodedView } from './decoded-view.js';

/**
 * Credentials in URLs never reach the log. The service never reads a credential from a URL, but clients put
 * them there anyway (`?access_token=` is RFC 6750's third method, `?code=` comes from the install redirect,
 * a login form that falls back to GET puts `password` in the query), and the request log writes every URL.
 *
 * The rules run on a decoded reading of the text (src/lib/decoded-view.ts), because what matters is what
 * some server or client could take for a credential, not how it was spelled: `access%5Ftoken`,
 * `%61ccess_token`, `access_token%3D=` (the name decodes to `access_token=`), `access_token%253D` (encoded
 * twice), `\u0026access_token=` inside JSON. Over-redacting a parameter that was no credential is harmless;
 * leaking one is not, so every doubt is resolved towards redaction:
 * - a credential name is found anywhere a word starts and ends (`?`, `&`, `;`, `#`, a space, a quote, `[`
 *   before it; `=` after it, maybe after spaces, `+` or one `[…]`), in the query, the fragment, a path, or a
 *   value holding another URL; its value runs to the next `&` or `#` as written (in a log line, also a space,
 *   a quote or a bracket), but an encoded `%26` or a `;` does not end it: a server splitting on `&` alone
 *   would read them as part of the token;
 * - a valueless credential name after `?`, `&`, `;` or `#` (`?access_token&<token>`), or an empty value,
 *   takes the next segment as its value when that segment has no `=`; so does a valued one (a token holding
 *   an `&`);
 * - the path segment after `/invite/` (a console invitation link is its own credential);
 * - the user information of `scheme://user:password@host` (also `https://<token>@host`).
 * Everything is linear in the input: one regular expression of plain alternatives, and precomputed
 * "next stop" tables instead of scanning forward from every match.
 */

/** Names whose value is a credential. Lower case; only letters and `_` (they go into a RegExp unescaped). */
const CREDENTIAL_NAMES = ['access_token', 'authorization_code', 'client_secret', 'refresh_token', 'password', 'token', 'code', '_csrf'];

const NAMES = new Set(CREDENTIAL_NAMES);

export const REDACTED = '[redacted]';

// Longest first, so `access_token` is tried before its tail `token`.
const NAME = new RegExp([...CREDENTIAL_NAMES].sort((a, b) => b.length - a.length).join('|'), 'gi');
/** Anything worth a closer look: a name, a path or authority rule's marker, or something to decode. */
const CANDIDATE = new RegExp(`${NAME.source}|invite|://|%|\\\\`, 'i');
const INVITE = /\/invite\/+/gi;
const SCHEME_SEPARATOR = /:\/\//g;

const isWordChar = (code: number) => (code >= 48 && code <= 57) || ((code | 0x20) >= 97 && (code | 0x20) <= 122) || code === 95;

/**
 * How a text is read. A URL (the request line's) is only percent-decoded, and a value in it ends at `&` or
 * `#` alone: a `"` or a `\` in a request target is part of the value a server reads. Text (a log line) is
 * JSON: its escapes are decoded too, and a URL quoted in it also ends at a space, a quote or a bracket.
 */
interface Reading {
  json: boolean;
  /** Whether a character, as written, ends a value. */
  endsValue(code: number): boolean;
}

const URL_READING: Reading = { json: false, endsValue: (code) => code <= 32 || code === 127 || code === 35 || code === 38 };

const TEXT_READING: Reading = {
  json: true,
  // Whitespace and controls, `"`, `#`, `&`, `'`, `<`, `>`, backtick.
  endsValue: (code) => code <= 32 || code === 127 || code === 0x85 || code === 0xa0 || code === 34 || code === 35 || code === 38 || code === 39 || code === 60 || code === 62 || code === 96,
};

/** Where the next stop is at or after each position (n when none): one backward pass each. */
class Stops {
  private valueEnds: Int32Array | null = null;
  private segmentEnds: Int32Array | null = null;
  private nextEquals: Int32Array | null = null;
  private pathEnds: Int32Array | null = null;
  constructor(
    private readonly view: DecodedView,
    private readonly reading: Reading,
  ) {}

  /** A character that ends something only as written, never when it came out of `%XX`. */
  private literal(i: number, test: (code: number) => boolean): boolean {
    return this.view.percent?.[i] !== 1 && test(this.view.text.charCodeAt(i));
  }

  private table(stop: (i: number) => boolean): Int32Array {
    const n = this.view.text.length;
    const next = new Int32Array(n + 1);
    next[n] = n;
    for (let i = n - 1; i >= 0; i--) next[i] = stop(i) ? i : next[i + 1]!;
    return next;
  }

  /** The end of a value starting at i. */
  valueEnd(i: number): number {
    this.valueEnds ??= this.table((k) => this.literal(k, this.reading.endsValue));
    return this.valueEnds[i]!;
  }

  /** The end of a segment starting at i: a value's end, or any `&` or `;` (however it was written). */
  segmentEnd(i: number): number {
    const text = this.view.text;
    this.segmentEnds ??= this.table((k) => text[k] === '&' || text[k] === ';' || this.literal(k, this.reading.endsValue));
    return this.segmentEnds[i]!;
  }

  /** The next `=` at or after i. */
  nextEqual(i: number): number {
    const text = this.view.text;
    this.nextEquals ??= this.table((k) => text[k] === '=');
    return this.nextEquals[i]!;
  }

  /** The end of a path segment starting at i: a value's end, or a written `/` or `?`. */
  pathEnd(i: number): number {
    this.pathEnds ??= this.table((k) => this.literal(k, (code) => code === 47 || code === 63 || this.reading.endsValue(code)));
    return this.pathEnds[i]!;
  }
}

/** Ranges of the decoded text to redact, for credential parameters. */
function credentialValues(view: DecodedView, stops: Stops, add: (start: number, end: number) => void): void {
  const text = view.text;
  const n = text.length;
  /** After a credential: the next segment, when it has no `=`, is taken for (the rest of) its value. */
  const takeBareSegment = (separator: number) => {
    if (separator >= n || (text[separator] !== '&' && text[separator] !== ';')) return;
    const start = separator + 1;
    const end = stops.segmentEnd(start);
    // A bare credential name (`?code=1&code&…`) is a parameter of its own, not the rest of a value.
    if (end > start && stops.nextEqual(start) >= end && !NAMES.has(text.slice(start, end).toLowerCase())) add(start, end);
  };
  for (const match of text.matchAll(NAME)) {
    const start = match.index;
    const nameEnd = start + match[0].length;
    if (start > 0 && isWordChar(text.charCodeAt(start - 1))) continue;
    let k = nameEnd;
    while (k < n && (text[k] === ' ' || text[k] === '+')) k++;
    // `access_token[]=` and `access_token[0]=`: array syntax some query parsers read as the same name.
    if (text[k] === '[') {
      let close = k + 1;
      while (close < n && close - k <= 40 && text[close] !== ']' && text[close] !== '=') close++;
      if (text[close] === ']') k = close + 1;
      while (k < n && (text[k] === ' ' || text[k] === '+')) k++;
    }
    if (text[k] === '=') {
      // An encoded `=` ending the name (`access_token%3D=`) leaves a second one: the value is after both.
      let valueStart = k + 1;
      while (valueStart < n && text[valueStart] === '=') valueStart++;
      const valueEnd = stops.valueEnd(valueStart);
      if (valueEnd > valueStart) add(valueStart, valueEnd);
      takeBareSegment(valueEnd);
    } else if (start > 0 && '?&;#'.includes(text[start - 1]!)) {
      takeBareSegment(k);
    }
  }
}

/** Ranges of the decoded text to redact: console invitation tokens and URL user information. */
function credentialPaths(view: DecodedView, stops: Stops, add: (start: number, end: number) => void): void {
  const text = view.text;
  for (const match of text.matchAll(INVITE)) {
    const start = match.index + match[0].length;
    const end = stops.pathEnd(start);
    if (end > start) add(start, end);
  }
  let scanned = 0;
  for (const match of text.matchAll(SCHEME_SEPARATOR)) {
    // The authority ends at the path, query or fragment; its user information ends at its last `@`. A
    // `://` inside an authority already scanned (written `:%2F%2F`) adds nothing, and rescanning would
    // make long inputs quadratic.
    const start = match.index + 3;
    if (start < scanned) continue;
    const end = stops.pathEnd(start);
    scanned = end;
    let at = -1;
    for (let i = start; i < end; i++) if (text[i] === '@') at = i;
    if (at > start) add(start, at);
  }
}

/** `text` with every credential found by the rules above replaced by REDACTED. */
function redact(text: string, reading: Reading): string {
  // The common log line holds no candidate at all: nothing is decoded or allocated for it.
  if (!CANDIDATE.test(text)) return text;
  const view = decodedView(text, reading.json);
  const stops = new Stops(view, reading);
  const ranges: [number, number][] = [];
  const add = (start: number, end: number) => ranges.push(originalRange(view, start, end));
  credentialValues(view, stops, add);
  credentialPaths(view, stops, add);
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a[0] - b[0]);
  const out: string[] = [];
  let written = 0;
  let open: [number, number] | null = null;
  for (const range of ranges) {
    if (open && range[0] <= open[1]) {
      open[1] = Math.max(open[1], range[1]);
      continue;
    }
    if (open) {
      out.push(text.slice(written, open[0]), REDACTED);
      written = open[1];
    }
    open = [range[0], range[1]];
  }
  if (open) out.push(text.slice(written, open[0]), REDACTED, text.slice(open[1]));
  return out.join('');
}

/** The request log's URL: `/v1/x?access_token=s3cret&pageLength=2` → `/v1/x?access_token=[redacted]&pageLength=2`. */
export function redactUrl(rawUrl: string): string {
  return redact(rawUrl, URL_READING);
}

/**
 * The last line of defence, over every serialized log line: credentials in any URL quoted anywhere (an
 * error message, a JSON body inside a message), JSON escapes and percent-encoding included.
 */
export function redactUrlsInText(text: string): string {
  return redact(text, TEXT_READING);
}
