import type { TObject } from '@sinclair/typebox';
import type { FieldViolation } from '../../../../domain/errors.js';
import type { ChannelRuleFields, ChannelRuleOverride, ChannelRules } from '../../../../domain/inventory/channel-rules.js';
import { MAX_RULE_QUANTITY, ruleValueProblems, type ChannelRulesInput } from '../../../../domain/inventory/channel-rules-store.js';
import { RulesBody, SkuOverrideBody } from '../../../admin/inventory-rules/schemas.js';
import { field, fields } from '../../components.js';
import { checkFormValue, formInt, type FormWords } from '../../form-check.js';

/**
 * A storefront's inventory rules as the console's two forms hold them (the rules for every SKU, and one
 * SKU's exception), what they send to replaceChannelRules, and its refusals put back next to the fields in
 * the seller's words. The rules themselves are the API's and the store's: what was typed is turned into the
 * body of PUT …/storefronts/{id}/inventory-rules (the form's modes into values), checked by that body's
 * schema through form-check.ts and by the store's own check of the values (ruleValueProblems: the ranges,
 * which the API's schema leaves to it), and each problem is put on its input in the seller's words.
 */

/** The largest number of units a rule holds (the store's limit: its columns are 32-bit integers on PostgreSQL). */
const MAX_UNITS = MAX_RULE_QUANTITY;

/** A problem the seller fixes: the input it is about (its id on the page) and the sentence. */
export interface FormProblem {
  id: string;
  text: string;
}

/** The id of the list of problems no single input of the posted form holds. */
export const GENERAL = 'rules-problems';

export interface RulesForm {
  percent: string;
  safety: string;
  max: string;
  fixed: string;
  feed: 'all' | 'some';
  warehouses: string[];
}

export interface ExceptionForm {
  sku: string;
  percent: string;
  safety: string;
  maxMode: 'same' | 'none' | 'set';
  max: string;
  fixedMode: 'same' | 'no' | 'set';
  fixed: string;
  feed: 'same' | 'all' | 'some';
  warehouses: string[];
}

const SAY = {
  percent: 'Enter a whole number from 1 to 100.',
  safety: `Enter a whole number of units from 0 to ${MAX_UNITS.toLocaleString('en-US')} (0 keeps nothing back).`,
  max: `Enter a whole number of units from 0 to ${MAX_UNITS.toLocaleString('en-US')}, or leave it empty for no limit.`,
  fixed: `Enter a whole number of units from 0 to ${MAX_UNITS.toLocaleString('en-US')}, or leave it empty to show what is in stock.`,
  warehousesNone: 'Tick at least one warehouse, or choose all your warehouses.',
  warehousesBad: 'Choose warehouses from the list: one you ticked is not one of yours, or holds the channel’s own stock.',
  skuMissing: 'Enter the SKU this exception is for.',
  skuTwice: 'This SKU already has an exception: edit that one.',
} as const;

export const notInCatalog = (sku: string) => `${sku} is not in your catalog. Check the spelling, or add the product under Catalog first.`;

export function rulesFormOf(rules: ChannelRuleFields): RulesForm {
  return {
    percent: String(rules.percent),
    safety: String(rules.safetyQuantity),
    max: rules.maxQuantity === null ? '' : String(rules.maxQuantity),
    fixed: rules.fixedQuantity === null ? '' : String(rules.fixedQuantity),
    feed: rules.warehouseIds === null ? 'all' : 'some',
    warehouses: (rules.warehouseIds ?? []).map(String),
  };
}

export function exceptionFormOf(sku: string, o: ChannelRuleOverride): ExceptionForm {
  return {
    sku,
    percent: o.percent === undefined ? '' : String(o.percent),
    safety: o.safetyQuantity === undefined ? '' : String(o.safetyQuantity),
    maxMode: o.maxQuantity === undefined ? 'same' : o.maxQuantity === null ? 'none' : 'set',
    max: o.maxQuantity === undefined || o.maxQuantity === null ? '' : String(o.maxQuantity),
    fixedMode: o.fixedQuantity === undefined ? 'same' : o.fixedQuantity === null ? 'no' : 'set',
    fixed: o.fixedQuantity === undefined || o.fixedQuantity === null ? '' : String(o.fixedQuantity),
    feed: o.warehouseIds === undefined ? 'same' : o.warehouseIds === null ? 'all' : 'some',
    warehouses: (o.warehouseIds ?? []).map(String),
  };
}

export const emptyExceptionForm = (sku = ''): ExceptionForm => exceptionFormOf(sku, {});

const oneOf = <T extends string>(value: string, allowed: readonly T[], fallback: T): T => (allowed.includes(value as T) ? (value as T) : fallback);

export function readRulesForm(body: unknown): RulesForm {
  return {
    percent: field(body, 'percent'),
    safety: field(body, 'safety'),
    max: field(body, 'max'),
    fixed: field(body, 'fixed'),
    feed: oneOf(field(body, 'feed'), ['all', 'some'], 'all'),
    warehouses: fields(body, 'warehouse'),
  };
}

export function readExceptionForm(body: unknown): ExceptionForm {
  return {
    sku: field(body, 'sku').trim(),
    percent: field(body, 'percent'),
    safety: field(body, 'safety'),
    maxMode: oneOf(field(body, 'max_mode'), ['same', 'none', 'set'], 'same'),
    max: field(body, 'max'),
    fixedMode: oneOf(field(body, 'fixed_mode'), ['same', 'no', 'set'], 'same'),
    fixed: field(body, 'fixed'),
    feed: oneOf(field(body, 'feed'), ['same', 'all', 'some'], 'same'),
    warehouses: fields(body, 'warehouse'),
  };
}

/** Ticked warehouse ids; a value that is not an id is passed on as -1, which the store refuses as not a warehouse of the account. */
const ticked = (values: string[]) => values.map((v) => (/^\d{1,10}$/.test(v) ? Number(v) : -1));

/** The inputs of a form in the order of the page, which is the order its problems are listed in. */
const INPUTS = ['sku', 'percent', 'safety', 'max', 'fixed', 'warehouses'] as const;

/** The schema's problems of each body field, in the seller's words (a SKU's other problems: see bodyProblems). */
const WORDS: FormWords = {
  sku: { blank: SAY.skuMissing },
  percent: { says: SAY.percent },
  safetyQuantity: { says: SAY.safety },
  maxQuantity: { says: SAY.max },
  fixedQuantity: { says: SAY.fixed },
  warehouseIds: { says: SAY.warehousesBad },
};

/**
 * A body built from a form, checked by the API's `schema` (through form-check.ts) and by the store's check
 * of the values, its problems on the inputs whose ids start with `prefix` ("f-percent"), one per input, in
 * the page's order, together with the form's own (`own`). `skuFits` is false when the schema refuses a SKU
 * that was typed (too long, control characters): no catalog SKU is such, so the page says it is not in the
 * catalog, as it says of any SKU the catalog does not hold, where it would have asked the catalog.
 */
function bodyProblems(prefix: 'f' | 'x', schema: TObject, body: Record<string, unknown>, own: FormProblem[]): { problems: FormProblem[]; skuFits: boolean } {
  let skuFits = true;
  const found: FormProblem[] = [...own];
  const checked = checkFormValue(schema, body, WORDS);
  for (const p of checked.ok ? [] : checked.problems) {
    const input = INPUT_OF[p.field.split(/[.[]/)[0] ?? ''] ?? '';
    if (input === 'sku' && p.text !== SAY.skuMissing) skuFits = false;
    else found.push({ id: input === '' ? GENERAL : `${prefix}-${input}`, text: p.text });
  }
  for (const v of ruleValueProblems('', body)) {
    const input = INPUT_OF[v.field.split(/[.[]/)[0] ?? ''] ?? '';
    found.push({ id: input === '' ? GENERAL : `${prefix}-${input}`, text: sentenceOf(input, v, null) });
  }
  const rank = (id: string) => {
    const at = INPUTS.findIndex((i) => id === `${prefix}-${i}`);
    return at === -1 ? INPUTS.length : at;
  };
  // One problem per input (a value of the wrong type is refused by both checks), the first found.
  const problems = found.filter((p, i) => found.findIndex((q) => q.id === p.id) === i).sort((a, b) => rank(a.id) - rank(b.id));
  return { problems, skuFits };
}

/** The rules for every SKU the form asks for (blank safety = 0, blank cap = none, blank fixed = from stock), or its problems. */
export function rulesInput(form: RulesForm): { fields: Omit<ChannelRulesInput, 'skuOverrides'>; problems: FormProblem[] } {
  const body = {
    percent: formInt(form.percent),
    safetyQuantity: formInt(form.safety) ?? 0,
    maxQuantity: formInt(form.max) ?? null,
    fixedQuantity: formInt(form.fixed) ?? null,
    warehouseIds: form.feed === 'all' ? null : ticked(form.warehouses),
  };
  // Console-only: the API takes a percent left out as 100, but this form always shows the percent in force,
  // so one left empty is a mistake, not a choice of the default.
  const own = body.percent === undefined ? [{ id: 'f-percent', text: SAY.percent }] : [];
  const { problems } = bodyProblems('f', RulesBody, body, own);
  // Without problems every value is as the schema and the store take it.
  return { fields: body as Omit<ChannelRulesInput, 'skuOverrides'>, problems };
}

/**
 * The fields one SKU's exception sets (a field left on "same as the storefront" is not set), or its problems.
 * `skuFits` is false when the SKU typed cannot be a catalog SKU (bodyProblems).
 */
export function exceptionInput(form: ExceptionForm): { override: ChannelRuleOverride; problems: FormProblem[]; skuFits: boolean } {
  const entry: Record<string, unknown> = {};
  if (form.percent.trim() !== '') entry.percent = formInt(form.percent);
  if (form.safety.trim() !== '') entry.safetyQuantity = formInt(form.safety);
  // Console-only: "set" with nothing typed. The API has no such mode (a field left out follows the
  // storefront, which is the form's "same"), so the form asks for the number itself.
  const own: FormProblem[] = [];
  if (form.maxMode === 'none') entry.maxQuantity = null;
  if (form.maxMode === 'set') {
    if (form.max.trim() === '') own.push({ id: 'x-max', text: 'Enter the most units to show.' });
    else entry.maxQuantity = formInt(form.max);
  }
  if (form.fixedMode === 'no') entry.fixedQuantity = null;
  if (form.fixedMode === 'set') {
    if (form.fixed.trim() === '') own.push({ id: 'x-fixed', text: 'Enter how many units to always show.' });
    else entry.fixedQuantity = formInt(form.fixed);
  }
  if (form.feed === 'all') entry.warehouseIds = null;
  if (form.feed === 'some') entry.warehouseIds = ticked(form.warehouses);
  const { problems, skuFits } = bodyProblems('x', SkuOverrideBody, { sku: form.sku, ...entry }, own);
  // Without problems every value is as the schema and the store take it.
  return { override: entry as ChannelRuleOverride, problems, skuFits };
}

/** The remove button's SKU as the API's schema takes one: false when no exception can be for it. */
export const skuCanHaveException = (sku: string): boolean => checkFormValue(SkuOverrideBody.properties.sku, sku).ok;

/** The stored rules as the store's input: what a save of one form sends again for the other's part, unchanged. */
export function storedInput(rules: ChannelRules): Omit<ChannelRulesInput, 'skuOverrides'> {
  return {
    warehouseIds: rules.warehouseIds,
    percent: rules.percent,
    safetyQuantity: rules.safetyQuantity,
    maxQuantity: rules.maxQuantity,
    fixedQuantity: rules.fixedQuantity,
  };
}

const INPUT_OF: Record<string, string> = { percent: 'percent', safetyQuantity: 'safety', maxQuantity: 'max', fixedQuantity: 'fixed', warehouseIds: 'warehouses', sku: 'sku' };

/** A store refusal's sentence for one field (its description is written for the operator API). */
function sentenceOf(input: string, v: FieldViolation, sku: string | null): string {
  switch (input) {
    case 'percent':
      return SAY.percent;
    case 'safety':
      return SAY.safety;
    case 'max':
      return SAY.max;
    case 'fixed':
      return SAY.fixed;
    case 'warehouses':
      return /at least one/.test(v.description) ? SAY.warehousesNone : SAY.warehousesBad;
    case 'sku':
      return /already overridden/.test(v.description) ? SAY.skuTwice : sku === null || sku === '' ? SAY.skuMissing : notInCatalog(sku);
    default:
      return 'These rules could not be saved. Reload the page and try again.';
  }
}

/**
 * The store's refusals on the fields of the posted form: the rules for every SKU (`form` 'rules') or the
 * exception at `exceptionIndex` of the set sent (`form` 'exception'); a refusal of another part (an
 * exception saved earlier whose SKU or warehouse has gone since) is listed above the form, naming it.
 */
export function storeProblems(
  violations: readonly FieldViolation[],
  sent: readonly { sku: string }[],
  posted: { form: 'rules' } | { form: 'exception'; exceptionIndex: number },
): FormProblem[] {
  const out: FormProblem[] = [];
  for (const v of violations) {
    const m = /^skuOverrides\[(\d+)\](?:\.([A-Za-z]+))?/.exec(v.field);
    const name = m ? (m[2] ?? '') : (v.field.split(/[.[]/)[0] ?? '');
    const input = INPUT_OF[name] ?? '';
    if (m) {
      const index = Number(m[1]);
      const sku = sent[index]?.sku ?? null;
      const text = sentenceOf(input, v, sku);
      if (posted.form === 'exception' && index === posted.exceptionIndex) out.push({ id: input === '' ? GENERAL : `x-${input}`, text });
      else out.push({ id: GENERAL, text: `The exception for ${sku ?? 'a SKU'}: ${text}` });
    } else if (name === 'skuOverrides') {
      out.push({ id: GENERAL, text: 'This storefront has as many exceptions as it may hold. Remove one before adding another.' });
    } else if (posted.form === 'rules') {
      out.push({ id: input === '' ? GENERAL : `f-${input}`, text: sentenceOf(input, v, null) });
    } else {
      out.push({ id: GENERAL, text: `The rules for every SKU: ${sentenceOf(input, v, null)} Fix them in the form above first.` });
    }
  }
  // One sentence per input (a list of warehouses may hold several bad ones).
  return out.filter((p, i) => out.findIndex((q) => q.id === p.id && q.text === p.text) === i);
}
