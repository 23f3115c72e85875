import type { Db, Tx } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { failedPrecondition, invalidField, notFound, permissionDenied } from '../errors.js';
import { idViolation, MAX_LIST_ITEMS, readStoredSpec, type SpecType } from './taxonomy-spec.js';

/**
 * Storefront valid values (resolutions §7; the production definition's SetStorefrontValidValues): some
 * select attributes have values that differ per storefront instance (a channel's approved item types, a
 * seller's business policies). The channel sets them per spec id for its storefront; when set they replace
 * the spec's own validValues in what the seller may choose (seller edits are checked against them,
 * valid-values-check.ts) and in what the seller is offered (the operator API's attribute spec read).
 * The channel's taxonomy reads keep answering the spec as the channel stored it.
 *
 * Keyed by spec id alone, as the channel sends it: the values apply to every select-type spec with that id
 * on any of the storefront's product types.
 */

/** The spec types whose validValues constrain a value; the only ones storefront values can be set for. */
export const SELECT_TYPES: readonly SpecType[] = ['TYPE_SELECT', 'TYPE_MULTI_SELECT'];
/** One valid value: a name shown to the seller, never an essay. */
export const MAX_VALID_VALUE_LENGTH = 1000;

export interface StorefrontValidValues {
  specId: string;
  validValues: string[];
}

function storefrontOf(principal: Principal): { accountId: number; storefrontId: number } {
  // The route's auth binding already refuses other tokens; this keeps the domain safe on its own.
  if (principal.storefrontId === null) throw permissionDenied('this operation needs a token of a sales-channel installation');
  return { accountId: principal.accountId, storefrontId: principal.storefrontId };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** specId from a body or query (camelCase or snake_case): required, an id of sane length. */
export function readSpecId(source: Record<string, unknown>): string {
  const name = source['specId'] === undefined && source['spec_id'] !== undefined ? 'spec_id' : 'specId';
  const value = source[name];
  if (value === undefined || value === null || value === '') throw invalidField(name, 'is required');
  if (typeof value !== 'string') throw invalidField(name, 'must be a string');
  const problem = idViolation(value);
  if (problem) throw invalidField(name, problem);
  return value;
}

/** {specId*, validValues[]} as the channel sends it; other fields (accountId, storefrontId…) are ignored. */
export function parseStorefrontValidValues(body: unknown): StorefrontValidValues {
  if (!isObject(body)) throw invalidField('body', 'must be an object');
  const specId = readSpecId(body);
  const name = body['validValues'] === undefined && body['valid_values'] !== undefined ? 'valid_values' : 'validValues';
  const raw = body[name] ?? [];
  if (!Array.isArray(raw)) throw invalidField(name, 'must be an array of strings');
  if (raw.length > MAX_LIST_ITEMS) throw invalidField(name, `must not have more than ${MAX_LIST_ITEMS} items`);
  raw.forEach((v, i) => {
    if (typeof v !== 'string') throw invalidField(`${name}[${i}]`, 'must be a string');
    if (v.length > MAX_VALID_VALUE_LENGTH) throw invalidField(`${name}[${i}]`, `must be at most ${MAX_VALID_VALUE_LENGTH} characters`);
  });
  return { specId, validValues: raw as string[] };
}

/** The storefront's specs with this id, on any product type, with their types. */
async function specTypesOf(db: Db, sf: { accountId: number; storefrontId: number }, specId: string): Promise<{ productTypeId: string; type: SpecType }[]> {
  const rows = await db
    .selectFrom('taxonomy_attribute_specs')
    .select(['product_type_id', 'spec'])
    .where('account_id', '=', sf.accountId)
    .where('storefront_id', '=', sf.storefrontId)
    .where('attribute_spec_id', '=', specId)
    .execute();
  return rows.map((r) => ({ productTypeId: r.product_type_id, type: readStoredSpec(r.spec).type }));
}

/**
 * POST /v2/storefront/listing/valid_values: replaces the storefront's valid values of a spec. The spec must
 * exist on one of the storefront's product types (else 404) and be TYPE_SELECT or TYPE_MULTI_SELECT on at
 * least one of them (else FAILED_PRECONDITION: values of a free-text spec would constrain nothing). An empty
 * list removes the storefront's values, so the spec's own apply again.
 */
export async function setStorefrontValidValues(tx: Tx, principal: Principal, input: StorefrontValidValues, now: Date): Promise<void> {
  const sf = storefrontOf(principal);
  const specs = await specTypesOf(tx, sf, input.specId);
  if (specs.length === 0) throw notFound(`attribute spec "${input.specId}" not found on this storefront's product types`);
  if (!specs.some((s) => SELECT_TYPES.includes(s.type))) {
    const types = [...new Set(specs.map((s) => s.type))].join(', ');
    throw failedPrecondition(`attribute spec "${input.specId}" is ${types}; storefront valid values apply to ${SELECT_TYPES.join(' and ')} specs only`);
  }
  if (input.validValues.length === 0) {
    await tx
      .deleteFrom('storefront_valid_values')
      .where('account_id', '=', sf.accountId)
      .where('storefront_id', '=', sf.storefrontId)
      .where('spec_id', '=', input.specId)
      .execute();
    return;
  }
  const validValues = JSON.stringify(input.validValues);
  const at = now.toISOString();
  await tx
    .insertInto('storefront_valid_values')
    .values({ account_id: sf.accountId, storefront_id: sf.storefrontId, spec_id: input.specId, valid_values: validValues, updated_at: at })
    // One statement, so that two concurrent sets of a new spec id cannot collide: the last one wins.
    .onConflict((oc) => oc.columns(['account_id', 'storefront_id', 'spec_id']).doUpdateSet({ valid_values: validValues, updated_at: at }))
    .execute();
}

/** The storefront's own values per spec id (only the ids given; those without values are absent). */
export async function storefrontValidValuesFor(db: Db, accountId: number, storefrontId: number, specIds: string[]): Promise<Map<string, string[]>> {
  const ids = [...new Set(specIds)];
  const map = new Map<string, string[]>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('storefront_valid_values')
      .select(['spec_id', 'valid_values'])
      .where('account_id', '=', accountId)
      .where('storefront_id', '=', storefrontId)
      .where('spec_id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) map.set(r.spec_id, JSON.parse(r.valid_values) as string[]);
  }
  return map;
}

/** How many spec ids one GET may name (checked before any is read). */
export const MAX_SPEC_IDS_PER_READ = 1000;

/**
 * The spec ids of a GET (resolutions §7, third review: the production form): `specIds`, repeated or
 * comma-separated, with `specId` (and the snake_case names) accepted as aliases; null when none is named,
 * which reads every spec with stored values.
 */
export function readSpecIds(query: Record<string, unknown>): string[] | null {
  const named = ['specIds', 'spec_ids', 'specId', 'spec_id'].filter((name) => query[name] !== undefined && query[name] !== '');
  if (named.length === 0) return null;
  const ids: string[] = [];
  for (const name of named) {
    const raw = query[name];
    const values = Array.isArray(raw) ? raw : [raw];
    for (const value of values) {
      if (typeof value !== 'string') throw invalidField(name, 'must be a string, repeated or comma-separated');
      const parts = value.split(',').filter((part) => part !== '');
      if (ids.length + parts.length > MAX_SPEC_IDS_PER_READ) throw invalidField(name, `must not name more than ${MAX_SPEC_IDS_PER_READ} spec ids`);
      for (const part of parts) {
        const problem = idViolation(part);
        if (problem) throw invalidField(name, `"${part}" ${problem}`);
        ids.push(part);
      }
    }
  }
  return [...new Set(ids)];
}

export interface StorefrontValidValuesRead {
  specIdToValidValues: Record<string, { validValues: string[] }>;
}

/**
 * GET /v2/storefront/listing/valid_values: the storefront's own values per spec id, for the ids named or,
 * without any, every spec with stored values. A spec without storefront values is absent from the map (its
 * own validValues apply), so an unknown id is not an error: the map simply lacks it.
 */
export async function readStorefrontValidValues(db: Db, principal: Principal, specIds: string[] | null): Promise<StorefrontValidValuesRead> {
  const sf = storefrontOf(principal);
  let stored: Map<string, string[]>;
  if (specIds) stored = await storefrontValidValuesFor(db, sf.accountId, sf.storefrontId, specIds);
  else {
    const rows = await db
      .selectFrom('storefront_valid_values')
      .select(['spec_id', 'valid_values'])
      .where('account_id', '=', sf.accountId)
      .where('storefront_id', '=', sf.storefrontId)
      .orderBy('spec_id')
      .execute();
    stored = new Map(rows.map((r) => [r.spec_id, JSON.parse(r.valid_values) as string[]]));
  }
  const ordered = [...stored.keys()].sort();
  return { specIdToValidValues: Object.fromEntries(ordered.map((id) => [id, { validValues: stored.get(id)! }])) };
}
