import type { FieldViolation } from '../../../../domain/errors.js';
import type { ChannelRuleFields, ChannelRuleOverride, ChannelRules } from '../../../../domain/inventory/channel-rules.js';
import type { ChannelRulesInput } from '../../../../domain/inventory/channel-rules-store.js';
import { field, fields } from '../../components.js';

/**
 * A storefront's inventory rules as the console's two forms hold them (the rules for every SKU, and one
 * SKU's exception), what they send to replaceChannelRules, and its refusals put back next to the fields in
 * the seller's words. The rules themselves are the store's (channel-rules-store.ts): this file only reads
 * what was typed, and says where a problem is and how it reads.
 */

/**
 * The largest number of units a form takes. The store's columns are 32-bit integers on PostgreSQL, so a
 * larger number would fail there instead of being refused; no seller keeps back or lists a billion units.
 */
export const MAX_UNITS = 1_000_000_000;

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

/** A whole number in [min, max] as typed, or the problem. */
function count(text: string, min: number, max: number): number | null {
  const t = text.trim();
  if (!/^\d{1,12}$/.test(t)) return null;
  const n = Number(t);
  return n >= min && n <= max ? n : null;
}

/** Ticked warehouse ids; a value that is not an id is passed on as -1, which the store refuses as not a warehouse of the account. */
const ticked = (values: string[]) => values.map((v) => (/^\d{1,10}$/.test(v) ? Number(v) : -1));

/** The rules for every SKU the form asks for (blank safety = 0, blank cap = none, blank fixed = from stock), or its problems. */
export function rulesInput(form: RulesForm): { fields: Omit<ChannelRulesInput, 'skuOverrides'>; problems: FormProblem[] } {
  const problems: FormProblem[] = [];
  const percent = count(form.percent, 1, 100);
  if (percent === null) problems.push({ id: 'f-percent', text: SAY.percent });
  const safety = form.safety.trim() === '' ? 0 : count(form.safety, 0, MAX_UNITS);
  if (safety === null) problems.push({ id: 'f-safety', text: SAY.safety });
  const max = form.max.trim() === '' ? null : count(form.max, 0, MAX_UNITS);
  if (form.max.trim() !== '' && max === null) problems.push({ id: 'f-max', text: SAY.max });
  const fixed = form.fixed.trim() === '' ? null : count(form.fixed, 0, MAX_UNITS);
  if (form.fixed.trim() !== '' && fixed === null) problems.push({ id: 'f-fixed', text: SAY.fixed });
  const warehouseIds = form.feed === 'all' ? null : ticked(form.warehouses);
  if (warehouseIds !== null && warehouseIds.length === 0) problems.push({ id: 'f-warehouses', text: SAY.warehousesNone });
  return { fields: { percent: percent ?? 100, safetyQuantity: safety ?? 0, maxQuantity: max, fixedQuantity: fixed, warehouseIds }, problems };
}

/** The fields one SKU's exception sets (a field left on "same as the storefront" is not set), or its problems. */
export function exceptionInput(form: ExceptionForm): { override: ChannelRuleOverride; problems: FormProblem[] } {
  const problems: FormProblem[] = [];
  const override: ChannelRuleOverride = {};
  if (form.sku === '') problems.push({ id: 'x-sku', text: SAY.skuMissing });
  if (form.percent.trim() !== '') {
    const percent = count(form.percent, 1, 100);
    if (percent === null) problems.push({ id: 'x-percent', text: SAY.percent });
    else override.percent = percent;
  }
  if (form.safety.trim() !== '') {
    const safety = count(form.safety, 0, MAX_UNITS);
    if (safety === null) problems.push({ id: 'x-safety', text: SAY.safety });
    else override.safetyQuantity = safety;
  }
  if (form.maxMode === 'none') override.maxQuantity = null;
  if (form.maxMode === 'set') {
    const max = count(form.max, 0, MAX_UNITS);
    if (max === null) problems.push({ id: 'x-max', text: form.max.trim() === '' ? 'Enter the most units to show.' : SAY.max });
    else override.maxQuantity = max;
  }
  if (form.fixedMode === 'no') override.fixedQuantity = null;
  if (form.fixedMode === 'set') {
    const fixed = count(form.fixed, 0, MAX_UNITS);
    if (fixed === null) problems.push({ id: 'x-fixed', text: form.fixed.trim() === '' ? 'Enter how many units to always show.' : SAY.fixed });
    else override.fixedQuantity = fixed;
  }
  if (form.feed === 'all') override.warehouseIds = null;
  if (form.feed === 'some') {
    const ids = ticked(form.warehouses);
    if (ids.length === 0) problems.push({ id: 'x-warehouses', text: SAY.warehousesNone });
    else override.warehouseIds = ids;
  }
  return { override, problems };
}

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
