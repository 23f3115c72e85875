import type { Static, TObject } from '@sinclair/typebox';
import { field, fields } from './components.js';

/**
 * A posted form as the JSON body its API schema describes. HTML forms send text only, so each field is
 * turned into the type its property of the schema takes: digits into numbers, a checkbox into a boolean,
 * repeated fields into a list, a blank input into no value. Text that is not what the schema takes stays
 * text, so the schema (form-check.ts) names the field and what it expects; nothing is judged here.
 */

type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A form's text as an integer when it is one ("" is no value); other text stays, for the schema to name. */
export function formInt(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^-?\d{1,15}$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** A decimal number as typed ("12.50"), or the text for the schema to name. */
export function formNumber(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^-?\d{1,15}(\.\d{1,15})?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** Optional text: "" (or only spaces) is no value; anything else is kept as typed. */
export function formText(text: string): string | undefined {
  return text.trim() === '' ? undefined : text;
}

/** A checkbox: sent means ticked (an unticked box is not sent at all); "false" is what a hidden default sends. */
export function formBool(text: string): boolean {
  return text !== '' && text !== 'false';
}

/** The JSON types a property admits, through unions (TypeBox's Union, Nullable) and Unsafe enums. */
function typesOf(schema: unknown, out = new Set<string>()): Set<string> {
  if (!isNode(schema)) return out;
  const declared = schema.type;
  for (const t of Array.isArray(declared) ? declared : [declared]) if (typeof t === 'string') out.add(t);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches) typesOf(b, out);
  }
  return out;
}

/** The schema of a list property's entries (through Nullable), or null when the property is no list. */
function itemsOf(schema: unknown): unknown {
  if (!isNode(schema)) return null;
  if (schema.type === 'array') return schema.items ?? null;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    for (const b of branches) {
      const items = itemsOf(b);
      if (items !== null) return items;
    }
  }
  return null;
}

type Kind = 'text' | 'integer' | 'number' | 'boolean';

/**
 * How a field's text is read. A property that takes a string takes the text as typed even when it also
 * takes a number (a line id as "12" or 12, a decimal as "9.99"), so nothing is lost to a conversion.
 */
function kindOf(schema: unknown): Kind {
  const types = typesOf(schema);
  if (types.has('string')) return 'text';
  if (types.has('boolean')) return 'boolean';
  if (types.has('integer')) return 'integer';
  if (types.has('number')) return 'number';
  return 'text';
}

function read(kind: Kind, text: string): unknown {
  if (kind === 'boolean') return formBool(text);
  if (kind === 'integer') return formInt(text);
  if (kind === 'number') return formNumber(text);
  return formText(text);
}

export interface FormInputOptions<K extends string> {
  /** The form's input name of a property, where the form names it otherwise than the API. */
  inputs?: Partial<Record<K, string>>;
  /**
   * What a blank input means: no value (a create: the API's default applies) or, for a property that admits
   * null, null (an edit form that shows every field: blank clears it, as null does in a PATCH).
   */
  blank?: 'absent' | 'null';
  /** Properties whose text is trimmed (a code or a URL); other text is kept as typed (a password, notes). */
  trim?: readonly K[];
}

/**
 * The body `schema` describes, read from a form (request.body, or one row of a form's table as a record of
 * texts). Every top-level property is read from the input of its name: a list from its repeated fields
 * (blank entries dropped; none is an empty list, as unticked checkboxes mean), a boolean from a checkbox,
 * numbers from digits. A blank input of a required text property stays "" so its own rule (at least one
 * character) speaks; otherwise blank is no value, or null (see `blank`).
 */
export function formInput<S extends TObject>(schema: S, body: unknown, options: FormInputOptions<keyof Static<S> & string> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const trim = new Set<string>(options.trim ?? []);
  const inputs: Partial<Record<string, string>> = options.inputs ?? {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const input = inputs[name] ?? name;
    const items = itemsOf(property);
    if (items !== null) {
      const kind = kindOf(items);
      out[name] = fields(body, input)
        .map((text) => read(kind, trim.has(name) ? text.trim() : text))
        .filter((v) => v !== undefined);
      continue;
    }
    const kind = kindOf(property);
    const raw = field(body, input);
    const text = trim.has(name) ? raw.trim() : raw;
    if (kind !== 'boolean' && text.trim() === '') {
      if (required.has(name) && kind === 'text') out[name] = text;
      else if (options.blank === 'null' && typesOf(property).has('null')) out[name] = null;
      continue;
    }
    out[name] = read(kind, text);
  }
  return out;
}
