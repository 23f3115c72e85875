import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Reads the `curl` commands of a Markdown guide and turns each into the request curl would send, so a test can
 * replay the guide with app.inject. Only what the guides use is understood; anything else (an unknown curl
 * option, a shell construct, an unset variable, a missing file) throws, so a new example can never be skipped
 * silently: extend this file when a guide needs more.
 */

/** One curl command as the guide writes it, after `\`-newline continuations are joined. */
export interface DocCommand {
  /** The command text, from `curl` on (a `$(curl …)` substitution is taken without its `$(` and `)`). */
  text: string;
  /** 1-based line of the guide where the command starts. */
  line: number;
  /** The status the guide announces in a `# → 201 …` or `# 202 …` comment, else null (any 2xx). */
  expectedStatus: number | null;
  /** The keys of the answer a status comment sketches (`# → 201 {templateId, name, …}`), else null. */
  announcedKeys: string[] | null;
  /** The JSON answer shown in the fenced block right after this command's block (on its last command). */
  exampleAnswer: string | null;
}

/** A line of a fenced block that sets a shell variable (`A=http://…`), kept so later commands can use it. */
export interface DocAssignment {
  name: string;
  /** The value as written (quoted, with `$VAR`s), evaluated when the replay reaches it. */
  raw: string;
  line: number;
}

export type DocStep = ({ kind: 'curl' } & DocCommand) | ({ kind: 'assign' } & DocAssignment);

interface Fence {
  lang: string;
  /** Lines of the block, with the guide's line number of each. */
  lines: { text: string; line: number }[];
  /** Only blank lines separate this block from the next one. */
  nextFollowsDirectly: boolean;
}

function fencesOf(markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const fences: Fence[] = [];
  let open: Fence | null = null;
  let closedAt = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = /^\s*```(\S*)\s*$/.exec(line);
    if (open) {
      if (marker && marker[1] === '') {
        fences.push(open);
        open = null;
        closedAt = i;
      } else {
        open.lines.push({ text: line, line: i + 1 });
      }
      continue;
    }
    if (marker) {
      const previous = fences.at(-1);
      if (previous && closedAt >= 0) previous.nextFollowsDirectly = lines.slice(closedAt + 1, i).every((l) => l.trim() === '');
      open = { lang: marker[1]!, lines: [], nextFollowsDirectly: false };
    }
  }
  if (open) throw new Error('a fenced block is never closed');
  return fences;
}

/** Joins `\`-newline continuations: one logical line per command. */
function logicalLines(block: Fence['lines']): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let current: { text: string; line: number } | null = null;
  for (const l of block) {
    const text: string = current ? `${current.text}\n${l.text}` : l.text;
    const start: number = current?.line ?? l.line;
    // A quoted string may also span lines (a JSON body in '…'): keep reading until the quotes close.
    if (/\\$/.test(l.text) || !quotesClosed(text)) {
      current = { text: text.replace(/\\$/, ''), line: start };
      continue;
    }
    out.push({ text, line: start });
    current = null;
  }
  if (current) throw new Error(`line ${current.line}: a command never ends (an open quote or a trailing \\)`);
  return out;
}

function quotesClosed(text: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (quote === '"') {
      if (c === '\\') i++;
      else if (c === '"') quote = null;
    } else if (c === '\\') i++;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) return true;
    else if (c === "'" || c === '"') quote = c;
  }
  return quote === null;
}

const STATUS_IN_COMMENT = /(?:^|→\s*)([1-5]\d\d)\b/;

/** What a comment announces about an answer: `# Create → 201 {templateId, name, …}`, `# 202 {"deliveryId":…}`. */
function announcement(comment: string): { status: number; keys: string[] | null } | null {
  const status = STATUS_IN_COMMENT.exec(comment);
  if (!status) return null;
  const open = comment.indexOf('{', status.index);
  if (open < 0) return { status: Number(status[1]), keys: null };
  // The top-level entries of the sketched object, each `"key": value`, `key: value` or a bare `key`.
  const entries: string[] = [];
  let depth = 0;
  let entry = '';
  for (const c of comment.slice(open + 1)) {
    if (depth === 0 && (c === ',' || c === '}')) {
      entries.push(entry.trim());
      entry = '';
      if (c === '}') break;
      continue;
    }
    if ('{['.includes(c)) depth++;
    if ('}]'.includes(c)) depth--;
    entry += c;
  }
  const keys = entries.filter((e) => !/^(\.\.\.|…)$/.test(e)).map((e) => /^"?([A-Za-z_]\w*)"?\s*(?::|$)/.exec(e)?.[1]);
  if (keys.some((k) => k === undefined)) throw new Error(`a sketched answer the replay cannot read: ${comment}`);
  return { status: Number(status[1]), keys: keys as string[] };
}

/** The steps (curl commands and variable assignments) of every fenced block of a guide, in order. */
export function docSteps(markdown: string): DocStep[] {
  const steps: DocStep[] = [];
  const fences = fencesOf(markdown);
  fences.forEach((fence, index) => {
    if (fence.lang === 'json' || fence.lang === 'csv' || !fence.lines.some((l) => /\bcurl\b/.test(l.text))) return;
    let pending: ReturnType<typeof announcement> = null;
    let last: DocCommand | null = null;
    for (const { text, line } of logicalLines(fence.lines)) {
      const trimmed = text.trim();
      const comment = /^#\s*(.*)$/s.exec(trimmed);
      if (comment) {
        const said = announcement(comment[1]!);
        // `# → 200 …` right under a command is that command's answer; `# Create → 201 …` announces the next one.
        if (said && comment[1]!.startsWith('→') && last && last.expectedStatus === null) {
          last.expectedStatus = said.status;
          last.announcedKeys = said.keys;
        } else if (said) pending = said;
        continue;
      }
      const command = curlIn(trimmed, line);
      if (command !== null) {
        const trailing = commentOf(command);
        const said = (trailing === null ? null : announcement(trailing)) ?? pending;
        const step: DocStep = {
          kind: 'curl',
          text: command,
          line,
          expectedStatus: said?.status ?? null,
          announcedKeys: said?.keys ?? null,
          exampleAnswer: null,
        };
        steps.push(step);
        last = step;
        pending = null;
        continue;
      }
      const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(\S.*)$/s.exec(trimmed);
      // `url=$(…)` runs a command: only the curl inside it is replayed (above), its result is not assigned.
      if (assignment && !assignment[2]!.includes('$(') && isOneWord(assignment[2]!)) {
        steps.push({ kind: 'assign', name: assignment[1]!, raw: assignment[2]!, line });
      }
    }
    const next = fences[index + 1];
    if (last && fence.nextFollowsDirectly && next?.lang === 'json') {
      last.exampleAnswer = next.lines.map((l) => l.text).join('\n');
    }
  });
  return steps;
}

/** The curl command of a line: the line itself, or the `$(curl …)` inside it; null when it has none. */
function curlIn(text: string, line: number): string | null {
  if (/^curl\s/.test(text)) return text;
  const inside = /\$\((curl\s[^()]*)\)/.exec(text);
  if (inside) return inside[1]!;
  if (/(^|[\s|;&(`])curl\s/.test(text)) throw new Error(`line ${line}: a curl command the replay cannot isolate: ${text}`);
  return null;
}

function isOneWord(raw: string): boolean {
  try {
    // `<storefrontId>`: a placeholder the reader (or the test's bindings) replaces, not a redirection.
    return shellWords(raw.replace(/<(\w+)>/g, '$1'), () => '').words.length === 1;
  } catch {
    return false;
  }
}

function commentOf(command: string): string | null {
  try {
    return shellWords(command, () => '').comment;
  } catch {
    return null;
  }
}

/**
 * Splits a command line into words as a POSIX shell does for the forms the guides use: single quotes,
 * double quotes with `$VAR`/`${VAR}` and `\` escapes, bare words with `$VAR`, and a trailing `# comment`.
 * Operators (`; & | < > ( )`), backquotes and `$(…)` throw: the replay cannot run them.
 */
export function shellWords(line: string, variable: (name: string) => string): { words: string[]; comment: string | null } {
  const words: string[] = [];
  let word: string | null = null;
  let i = 0;
  const expand = (): string => {
    // at a `$`
    const braced = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(line.slice(i));
    const plain = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(line.slice(i));
    const match = braced ?? plain;
    if (!match) throw new Error(`a "$" the replay cannot expand at position ${i + 1}: ${line}`);
    i += match[0].length;
    return variable(match[1]!);
  };
  while (i < line.length) {
    const c = line[i]!;
    if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
      i++;
    } else if (c === '#' && word === null) {
      return { words, comment: line.slice(i + 1).trim() };
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`an unclosed ' in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      word = word ?? '';
      i++;
      for (;;) {
        if (i >= line.length) throw new Error(`an unclosed " in: ${line}`);
        const d = line[i]!;
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\' && /["\\$`\n]/.test(line[i + 1] ?? '')) {
          word += line[i + 1] === '\n' ? '' : line[i + 1];
          i += 2;
        } else if (d === '$') {
          word += expand();
        } else if (d === '`') {
          throw new Error(`a command substitution the replay cannot run: ${line}`);
        } else {
          word += d;
          i++;
        }
      }
    } else if (c === '\\') {
      word = (word ?? '') + (line[i + 1] === '\n' ? '' : (line[i + 1] ?? ''));
      i += 2;
    } else if (c === '$') {
      word = (word ?? '') + expand();
    } else if (/[;&|<>()`]/.test(c)) {
      throw new Error(`a shell operator "${c}" the replay cannot run (quote it if it belongs to a word): ${line}`);
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  if (word !== null) words.push(word);
  return { words, comment: null };
}

/** The request one curl command sends. */
export interface CurlRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  payload: Buffer | undefined;
  /** -J: curl saves the answer under the file name the answer's Content-Disposition gives. */
  savesUnderServerName: boolean;
}

/** Short options that take a value, and their long names. */
const WITH_VALUE: Record<string, string> = {
  X: '--request',
  H: '--header',
  d: '--data',
  F: '--form',
  u: '--user',
  o: '--output',
};
/** Short options without a value that only change what curl prints or where it writes the body. */
const FLAGS: Record<string, string> = { s: '--silent', S: '--show-error', O: '--remote-name', J: '--remote-header-name' };
const LONG_WITH_VALUE = new Set([...Object.values(WITH_VALUE), '--data-binary', '--data-urlencode']);
const LONG_FLAGS = new Set(Object.values(FLAGS));

/** The options in argument order, long names throughout; throws on one this replay does not understand. */
function options(args: string[]): { options: [string, string | null][]; urls: string[] } {
  const out: [string, string | null][] = [];
  const urls: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('--')) {
      if (LONG_FLAGS.has(arg)) out.push([arg, null]);
      else if (LONG_WITH_VALUE.has(arg)) {
        if (i + 1 >= args.length) throw new Error(`curl option ${arg} needs a value`);
        out.push([arg, args[++i]!]);
      } else throw new Error(`curl option ${arg} is not understood by the replay (test/helpers/curl-replay.ts)`);
    } else if (arg.startsWith('-') && arg.length > 1) {
      for (let k = 1; k < arg.length; k++) {
        const letter = arg[k]!;
        if (FLAGS[letter]) out.push([FLAGS[letter], null]);
        else if (WITH_VALUE[letter]) {
          const rest = arg.slice(k + 1);
          if (rest === '' && i + 1 >= args.length) throw new Error(`curl option -${letter} needs a value`);
          out.push([WITH_VALUE[letter], rest !== '' ? rest : args[++i]!]);
          break;
        } else throw new Error(`curl option -${letter} is not understood by the replay (test/helpers/curl-replay.ts)`);
      }
    } else urls.push(arg);
  }
  return { options: out, urls };
}

/** curl's --data-urlencode: `name=content` sends name=<content percent-encoded>, `content` or `=content` the content. */
function urlencodeData(value: string): string {
  if (value.includes('@') && /^[^=]*@/.test(value)) throw new Error(`--data-urlencode with a file (${value}) is not understood by the replay`);
  const eq = value.indexOf('=');
  const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  if (eq < 0) return encode(value);
  return eq === 0 ? encode(value.slice(1)) : `${value.slice(0, eq)}=${encode(value.slice(eq + 1))}`;
}

/** A form part: `name=value`, or `name=@file` with optional `;type=` and `;filename=`. */
interface FormPart {
  name: string;
  value: Buffer;
  filename: string | null;
  type: string | null;
}

function formPart(spec: string, file: (name: string) => Buffer): FormPart {
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new Error(`-F ${spec}: not name=value`);
  const name = spec.slice(0, eq);
  const value = spec.slice(eq + 1);
  if (value.startsWith('<')) throw new Error(`-F ${spec}: "<file" parts are not understood by the replay`);
  if (!value.startsWith('@')) return { name, value: Buffer.from(value), filename: null, type: null };
  const [fileName, ...params] = value.slice(1).split(';');
  let type: string | null = null;
  let filename = path.basename(fileName!);
  for (const p of params) {
    const [key, v] = p.split('=');
    if (key === 'type' && v) type = v;
    else if (key === 'filename' && v) filename = v;
    else throw new Error(`-F ${spec}: the part parameter "${p}" is not understood by the replay`);
  }
  return { name, value: file(fileName!), filename, type: type ?? 'application/octet-stream' };
}

function multipart(parts: FormPart[]): { payload: Buffer; contentType: string } {
  const boundary = `------------------------${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `Content-Disposition: form-data; name="${p.name}"${p.filename === null ? '' : `; filename="${p.filename}"`}`;
    const type = p.type === null ? '' : `\r\nContent-Type: ${p.type}`;
    chunks.push(Buffer.from(`--${boundary}\r\n${disposition}${type}\r\n\r\n`), p.value, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * The request curl sends for these arguments (the words after `curl`). `file` reads an `@file` the command
 * names. Defaults follow curl: GET; POST with -d/-F; form-urlencoded for -d, multipart for -F.
 */
export function curlRequest(args: string[], file: (name: string) => Buffer): CurlRequest {
  const { options: opts, urls } = options(args);
  if (urls.length !== 1) throw new Error(`expected one URL, got ${urls.length}: ${urls.join(' ')}`);
  const headers: Record<string, string> = { accept: '*/*', 'user-agent': 'curl/8' };
  let method: string | null = null;
  const data: string[] = [];
  const binary: Buffer[] = [];
  const form: FormPart[] = [];
  for (const [name, value] of opts) {
    const v = value ?? '';
    switch (name) {
      case '--request':
        method = v;
        break;
      case '--header': {
        const colon = v.indexOf(':');
        if (colon <= 0) throw new Error(`-H ${v}: not "Name: value"`);
        headers[v.slice(0, colon).trim().toLowerCase()] = v.slice(colon + 1).trim();
        break;
      }
      case '--user':
        headers.authorization = `Basic ${Buffer.from(v).toString('base64')}`;
        break;
      case '--data':
        // curl's -d reads @file with its newlines removed; no guide does that, so it is refused rather than guessed.
        if (v.startsWith('@')) throw new Error(`-d ${v}: reading a file with -d is not understood by the replay`);
        data.push(v);
        break;
      case '--data-binary':
        if (v.startsWith('@')) binary.push(file(v.slice(1)));
        else data.push(v);
        break;
      case '--data-urlencode':
        data.push(urlencodeData(v));
        break;
      case '--form':
        form.push(formPart(v, file));
        break;
      default:
        // --silent, --show-error, --output, --remote-name, --remote-header-name: only where the answer is written.
        break;
    }
  }
  if (form.length > 0 && (data.length > 0 || binary.length > 0)) throw new Error('curl cannot send -F together with -d');
  if (binary.length > 0 && data.length > 0) throw new Error('mixing --data-binary @file with other data is not understood by the replay');
  let payload: Buffer | undefined;
  if (form.length > 0) {
    const body = multipart(form);
    payload = body.payload;
    headers['content-type'] ??= body.contentType;
  } else if (binary.length > 0 || data.length > 0) {
    payload = binary.length > 0 ? Buffer.concat(binary) : Buffer.from(data.join('&'));
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  }
  return {
    method: method ?? (payload === undefined ? 'GET' : 'POST'),
    url: new URL(urls[0]!),
    headers,
    payload,
    savesUnderServerName: opts.some(([name]) => name === '--remote-header-name'),
  };
}

/** Reads `@file` names from a directory; a name that is not there throws. */
export function filesIn(dir: string): (name: string) => Buffer {
  return (name) => {
    const full = path.join(dir, name);
    if (path.dirname(full) !== path.resolve(dir) || !existsSync(full)) throw new Error(`@${name}: no such file in ${dir}`);
    return readFileSync(full);
  };
}

/**
 * The guides abbreviate JSON with `…` (`"lines": [ … ], …`): drops those, so the rest parses. `…` inside a string
 * is kept (it is part of an example value).
 */
export function relaxedJson(text: string): unknown {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '…') {
      out = out.replace(/,\s*$/, '');
    } else out += c;
  }
  return JSON.parse(out.replace(/([[{])\s*,/g, '$1'));
}

/**
 * Whether `actual` has the shape of the guide's example: every key the example shows is present, with the same
 * JSON type when both are non-null, recursively (an array's first element against the answer's first). Answers
 * may carry more than the example shows.
 */
export function shapeProblems(example: unknown, actual: unknown, where = '$'): string[] {
  if (example === null || actual === null) return [];
  const kind = (v: unknown) => (Array.isArray(v) ? 'array' : typeof v);
  if (kind(example) !== kind(actual)) return [`${where}: the guide shows ${kind(example)}, the answer has ${kind(actual)}`];
  if (Array.isArray(example)) {
    const list = actual as unknown[];
    return example.length > 0 && list.length > 0 ? shapeProblems(example[0], list[0], `${where}[0]`) : [];
  }
  if (typeof example !== 'object') return [];
  const object = actual as Record<string, unknown>;
  return Object.entries(example as Record<string, unknown>).flatMap(([key, value]) =>
    Object.hasOwn(object, key) ? shapeProblems(value, object[key], `${where}.${key}`) : [`${where}.${key}: missing from the answer`],
  );
}
