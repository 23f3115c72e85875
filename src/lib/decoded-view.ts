/**
 * A decoded reading of a text that remembers where each decoded character came from, so a caller can find
 * something in the decoded form and cut it out of the original (log redaction: src/lib/log-redaction.ts).
 *
 * Decoding undoes percent-encoding (`%3D` → `=`) and, with `json`, JSON string escapes (`\u0026` → `&`,
 * `\"` → `"`), repeatedly, because a log line is JSON holding URLs that may themselves be escaped or encoded
 * more than once (`access_token%253D`, a JSON body quoted inside a message). Every pass is linear and the
 * number of passes is bounded, so the whole is linear in the input.
 */

/** Passes at most: three levels of encoding or escaping, more than any server undoes. */
const MAX_PASSES = 4;

export interface DecodedView {
  /** The decoded text. */
  readonly text: string;
  /** Where decoded character i starts in the original (null: the identity). */
  readonly from: Int32Array | null;
  /** Where decoded character i ends in the original, exclusive (null: the identity). */
  readonly to: Int32Array | null;
  /**
   * 1 when decoded character i came out of percent-decoding (null: none did). Such a character is data, not
   * syntax: `%26` inside a value does not end the value for a server that splits on `&` before decoding.
   */
  readonly percent: Uint8Array | null;
}

const JSON_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** The value of `count` hex digits at `at`, or -1. */
function hexAt(text: string, at: number, count: number): number {
  if (at + count > text.length) return -1;
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const digit = hexValue(text.charCodeAt(i));
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** One pass of decoding over `view`, or null when there was nothing to decode. */
function decodeOnce(view: DecodedView, json: boolean): DecodedView | null {
  const { text } = view;
  const n = text.length;
  const from = new Int32Array(n);
  const to = new Int32Array(n);
  const percent = new Uint8Array(n);
  const out: string[] = [];
  let changed = false;
  let length = 0;
  // Percent-decoded bytes become the characters U+0000–U+00FF: a multi-byte UTF-8 sequence turns into
  // several non-ASCII characters, which never form a credential name or a separator, and never throws.
  const push = (char: string, first: number, last: number, fromPercent: boolean) => {
    from[length] = view.from ? view.from[first]! : first;
    to[length] = view.to ? view.to[last]! : last + 1;
    let derived = fromPercent;
    if (view.percent) for (let k = first; k <= last && !derived; k++) derived = view.percent[k] === 1;
    percent[length] = derived ? 1 : 0;
    out.push(char);
    length++;
  };
  for (let i = 0; i < n; i++) {
    const c = text[i]!;
    if (c === '%') {
      const byte = hexAt(text, i + 1, 2);
      if (byte >= 0) {
        push(String.fromCharCode(byte), i, i + 2, true);
        i += 2;
        changed = true;
        continue;
      }
    } else if (json && c === '\\' && i + 1 < n) {
      const next = text[i + 1]!;
      if (next === 'u') {
        const unit = hexAt(text, i + 2, 4);
        if (unit >= 0) {
          push(String.fromCharCode(unit), i, i + 5, false);
          i += 5;
          changed = true;
          continue;
        }
      } else if (JSON_ESCAPES[next] !== undefined) {
        push(JSON_ESCAPES[next], i, i + 1, false);
        i += 1;
        changed = true;
        continue;
      }
    }
    push(c, i, i, false);
  }
  if (!changed) return null;
  const anyPercent = percent.subarray(0, length).includes(1);
  return { text: out.join(''), from: from.slice(0, length), to: to.slice(0, length), percent: anyPercent ? percent.slice(0, length) : null };
}

/**
 * `text` decoded until nothing changes (or MAX_PASSES passes), with the way back to the original. `json`:
 * JSON string escapes too (a log line), not only percent-encoding (a URL, where no one reads `\u0026` as `&`).
 */
export function decodedView(text: string, json: boolean): DecodedView {
  let view: DecodedView = { text, from: null, to: null, percent: null };
  // Nothing to decode in most log lines: no allocation for them.
  if (!text.includes('%') && !(json && text.includes('\\'))) return view;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = decodeOnce(view, json);
    if (next === null) break;
    view = next;
  }
  return view;
}

/** The original range [start, end) of decoded characters [start, end) (end > start). */
export function originalRange(view: DecodedView, start: number, end: number): [number, number] {
  return [view.from ? view.from[start]! : start, view.to ? view.to[end - 1]! : end];
}
