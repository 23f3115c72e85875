import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import type { ErrorObject } from 'ajv';
import { invalidArgument, type AppError } from '../../domain/errors.js';
import { NO_CONTROL_CHARACTERS } from '../../domain/text-limits.js';
import { bodySchemaProblems } from '../validation.js';
import { formInput, type FormInputOptions } from './form-input.js';
import { fieldWords } from './refusal-words.js';

export { formBool, formInput, formInt, formNumber, formText } from './form-input.js';

/**
 * Every console form is checked here, against the SAME TypeBox schema as the API body it stands for (or a
 * form schema built from the API's field schemas), with the same validator as the route (src/http/validation.ts),
 * so a limit (a name's length, a quantity's range) is written once. What fails comes back in the seller's
 * words: one sentence per field, named as the form labels it, never the API's field name or ajv's phrasing.
 *
 * - readForm(schema, body, options): a flat form (its inputs are the body's properties) read by form-input.ts,
 *   checked, and its value or a refusal thrown (formAction shows it as a flash).
 * - checkForm(schema, value, words): a body the handler built from a form with rows, checked, or thrown.
 * - checkFormValue(schema, value, words): the same without throwing, for a page that shows each problem
 *   next to its input.
 * - schemaErrors(schema, value): ajv's own problems, for a form that places them itself (the new order's rows).
 */

/**
 * How a form names a field in its problems: its label ("Quantity: must be 1 or more"), or sentences said
 * instead: `blank` when it was left empty (or nothing was ticked), `says` for any (other) problem.
 */
export type FieldWords = string | { label?: string; says?: string; blank?: string };

/** Words per field of the body, by its path without list positions ("lineItems.quantity"). Others: refusal-words.ts's labels. */
export type FormWords = Readonly<Record<string, FieldWords>>;

/** One field's problem: its path in the body ("lineItems[0].quantity") and what the seller reads. */
export interface FieldProblem {
  field: string;
  text: string;
}

export type FormCheck<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

/** At most this many problems are listed in one flash; the rest are counted. */
const MAX_LISTED = 10;

const param = (e: ErrorObject, name: string): unknown => (e.params as Record<string, unknown>)[name];

const count = (n: unknown) => (typeof n === 'number' ? n.toLocaleString('en-US') : String(n));

/** The field an ajv problem is about, as a path: /lineItems/0/quantity → lineItems[0].quantity. */
function fieldOf(e: ErrorObject): string {
  const parts = e.instancePath
    .split('/')
    .filter((p) => p !== '')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const named = e.keyword === 'required' ? param(e, 'missingProperty') : e.keyword === 'additionalProperties' ? param(e, 'additionalProperty') : undefined;
  if (typeof named === 'string') parts.push(named);
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc === '' ? p : `${acc}.${p}`), '');
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'must be a whole number',
  number: 'must be a number',
  string: 'must be text',
  boolean: 'must be ticked or not',
  array: 'must be a list',
  object: 'must be a group of fields',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'must be an email address',
  date: 'must be a date (YYYY-MM-DD)',
  'date-time': 'must be a date and time',
  uri: 'must be a web address',
  url: 'must be a web address',
};

/** What a schema rule asks, in plain words (the limits are the schema's own). */
function describe(e: ErrorObject): string {
  const limit = param(e, 'limit');
  switch (e.keyword) {
    case 'required':
      return 'must be filled in';
    case 'type': {
      // Nullable fields list null too; a form has no way to send null, so it is not offered.
      const wanted = String(param(e, 'type')).split(',').filter((t) => t !== 'null');
      return TYPE_WORDS[wanted[0] ?? ''] ?? `must be ${wanted.join(' or ')}`;
    }
    case 'minLength':
      return limit === 1 ? 'must not be empty' : `must be at least ${count(limit)} characters`;
    case 'maxLength':
      return `must be at most ${count(limit)} characters`;
    case 'minimum':
      return `must be ${count(limit)} or more`;
    case 'maximum':
      return `must be ${count(limit)} or less`;
    case 'exclusiveMinimum':
      return `must be more than ${count(limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${count(limit)}`;
    case 'enum': {
      const allowed = param(e, 'allowedValues');
      return Array.isArray(allowed) ? `must be one of ${allowed.join(', ')}` : 'is not one of the choices';
    }
    case 'const':
      return `must be ${String(param(e, 'allowedValue'))}`;
    case 'pattern':
      return param(e, 'pattern') === NO_CONTROL_CHARACTERS ? 'must not contain control characters' : 'is not in the expected form';
    case 'format':
      return FORMAT_WORDS[String(param(e, 'format'))] ?? 'is not in the expected form';
    case 'minItems':
      return limit === 1 ? 'needs at least one entry' : `needs at least ${count(limit)} entries`;
    case 'maxItems':
      return `takes at most ${count(limit)} entries`;
    case 'minProperties':
      return 'needs at least one value';
    case 'additionalProperties':
      return 'is not a field of this form';
    default:
      return e.message ?? 'is not accepted';
  }
}

const isUnion = (e: ErrorObject) => e.keyword === 'anyOf' || e.keyword === 'oneOf';

/**
 * One problem per field. A union (Nullable, a line id as text or number) fails with one problem per branch:
 * a rule the value broke (a number too small) says more than a type it does not have, and a type other
 * than null more than null.
 */
function onePerField(errors: readonly ErrorObject[]): [string, ErrorObject][] {
  const byField = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    if (isUnion(e)) continue;
    const f = fieldOf(e);
    const list = byField.get(f);
    if (list) list.push(e);
    else byField.set(f, [e]);
  }
  return [...byField].map(([f, list]) => [
    f,
    list.find((e) => e.keyword !== 'type') ?? list.find((e) => String(param(e, 'type')) !== 'null') ?? list[0]!,
  ]);
}

/** Nothing given: a required field missing, an empty text that needs one character, no box ticked. */
function isBlank(e: ErrorObject): boolean {
  return e.keyword === 'required' || ((e.keyword === 'minLength' || e.keyword === 'minItems') && param(e, 'limit') === 1);
}

function problemText(f: string, e: ErrorObject, words: FieldWords | undefined): string {
  const said = typeof words === 'string' ? { label: words } : (words ?? {});
  if (said.blank !== undefined && isBlank(e)) return said.blank;
  if (said.says !== undefined) return said.says;
  return `${said.label ?? fieldWords(f)}: ${describe(e)}`;
}

/** The ajv problems of a body, exactly as its route's validation finds them (caps first), none when it passes. */
export function schemaErrors(schema: TSchema, value: unknown): ErrorObject[] {
  return bodySchemaProblems(schema, value);
}

/** Checks a body against its schema: its value, or each field's problem in the seller's words. */
export function checkFormValue<S extends TSchema>(schema: S, value: unknown, words: FormWords = {}): FormCheck<Static<S>> {
  const errors = schemaErrors(schema, value);
  if (errors.length === 0) return { ok: true, value: value as Static<S> };
  const problems: FieldProblem[] = [];
  for (const [f, e] of onePerField(errors)) {
    const text = problemText(f, e, words[f.replace(/\[\d+\]/g, '')]);
    if (!problems.some((p) => p.text === text)) problems.push({ field: f, text });
  }
  return { ok: false, problems };
}

/** The refusal a flash shows for a form's problems: their sentences in the form's order. */
export function formRefusal(problems: readonly FieldProblem[]): AppError {
  const listed = problems.slice(0, MAX_LISTED).map((p) => p.text);
  if (problems.length > MAX_LISTED) listed.push(`and ${problems.length - MAX_LISTED} more problems`);
  // "Name: must not be empty; Lead time (days): must be 0 or more", but whole sentences follow each other.
  const text = listed.reduce((acc, t) => (acc === '' ? t : `${acc}${/[.!?]$/.test(acc) ? ' ' : '; '}${t}`), '');
  return invalidArgument(text);
}

/** A body built from a form, checked: its typed value, or the refusal thrown (formAction shows it). */
export function checkForm<S extends TSchema>(schema: S, value: unknown, words: FormWords = {}): Static<S> {
  const checked = checkFormValue(schema, value, words);
  if (!checked.ok) throw formRefusal(checked.problems);
  return checked.value;
}

export type ReadFormOptions<S extends TObject> = FormInputOptions<keyof Static<S> & string> & { words?: FormWords };

/** A flat form read as the body `schema` describes (form-input.ts) and checked: its typed value, or the refusal thrown. */
export function readForm<S extends TObject>(schema: S, body: unknown, options: ReadFormOptions<S> = {}): Static<S> {
  return checkForm(schema, formInput(schema, body, options), options.words);
}

/** A confirmation box (value "yes") in front of an action that cannot be undone: a console-only field. */
const ConfirmForm = Type.Object({ confirm: Type.Literal('yes') });

/** Refuses with `says` unless the form's confirmation box was ticked. */
export function requireConfirmed(body: unknown, says: string): void {
  readForm(ConfirmForm, body, { words: { confirm: { says } } });
}
