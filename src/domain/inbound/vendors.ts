import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { VendorsTable } from '../../db/schema.js';
import type { Db } from '../../db/tx.js';
import { isUniqueViolation } from '../../db/tx.js';
import { getAccount, requireName } from '../accounts/accounts.js';
import { alreadyExists, invalidField, notFound } from '../errors.js';

/**
 * Vendors (document 2.8, resolutions §3): the seller's suppliers, managed under /admin and named by inbound
 * shipments. Names are unique per account compared case-insensitively ("Acme" and "ACME" are one vendor),
 * because a shipment names its vendor by name and creates it when new. An archived vendor is kept (its
 * shipments still name it) but is left out of lists and cannot take new shipments until restored.
 */

export type VendorRow = Selectable<VendorsTable>;

/** The operator API's view of a vendor. */
export interface VendorView {
  vendorId: number;
  name: string;
  address: string | null;
  leadTimeDays: number | null;
  paymentWindowDays: number | null;
  notes: string | null;
  contact: string | null;
  archived: boolean;
  createdAt: string;
  updatedAt: string;
}

/** GET /v1/vendor/{id}: the fields inside `results` (resolutions §3). */
export interface VendorResultV1 {
  vendorId: number;
  name: string;
  address: string | null;
  leadTimeDays: number | null;
  notes: string | null;
  paymentWindowDays: number | null;
}

export interface VendorInput {
  name: string;
  address?: string | null | undefined;
  leadTimeDays?: number | null | undefined;
  paymentWindowDays?: number | null | undefined;
  notes?: string | null | undefined;
  contact?: string | null | undefined;
}

export interface VendorPatch extends Partial<VendorInput> {
  /** false restores an archived vendor; true archives it. */
  archived?: boolean | undefined;
}

/** An account's vendors are capped: a vendor is created by any shipment naming a new one, so a runaway client cannot grow them without bound. */
export const MAX_VENDORS = 10_000;

export function toVendorView(row: VendorRow): VendorView {
  return {
    vendorId: row.id,
    name: row.name,
    address: row.address,
    leadTimeDays: row.lead_time_days,
    paymentWindowDays: row.payment_window_days,
    notes: row.notes,
    contact: row.contact,
    archived: row.archived_at !== null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toVendorResultV1(row: VendorRow): VendorResultV1 {
  return {
    vendorId: row.id,
    name: row.name,
    address: row.address,
    leadTimeDays: row.lead_time_days,
    notes: row.notes,
    paymentWindowDays: row.payment_window_days,
  };
}

/** Blank optional text is stored as null: "" and "   " say nothing. */
function optionalText(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** A new vendor as both creators write it: the details given, the rest empty, not archived. */
function newVendorRow(accountId: number, name: string, iso: string, input: VendorInput): Insertable<VendorsTable> {
  return {
    account_id: accountId,
    name,
    name_lower: name.toLowerCase(),
    address: optionalText(input.address) ?? null,
    lead_time_days: input.leadTimeDays ?? null,
    payment_window_days: input.paymentWindowDays ?? null,
    notes: optionalText(input.notes) ?? null,
    contact: optionalText(input.contact) ?? null,
    archived_at: null,
    created_at: iso,
    updated_at: iso,
  };
}

function nameTaken(name: string, accountId: number) {
  return alreadyExists(`a vendor named "${name}" already exists in account ${accountId} (names compare case-insensitively)`).because('vendor.name_taken', { name });
}

/** Refuses a new vendor when the account already has MAX_VENDORS (`field` names what would create it). */
async function checkVendorCap(db: Db, accountId: number, field: string): Promise<void> {
  const count = await db
    .selectFrom('vendors')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= MAX_VENDORS) throw invalidField(field, `an account has at most ${MAX_VENDORS.toLocaleString('en-US')} vendors`);
}

export async function createVendor(db: Db, accountId: number, input: VendorInput, now: Date): Promise<VendorRow> {
  const name = requireName('name', input.name);
  await getAccount(db, accountId);
  await checkVendorCap(db, accountId, 'name');
  const iso = now.toISOString();
  try {
    return await db
      .insertInto('vendors')
      .values(newVendorRow(accountId, name, iso, input))
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(name, accountId);
    throw error;
  }
}

/** One vendor of the account (archived ones too); another account's id is not found. */
export async function getVendor(db: Db, accountId: number, vendorId: number): Promise<VendorRow> {
  const row = await db.selectFrom('vendors').selectAll().where('account_id', '=', accountId).where('id', '=', vendorId).executeTakeFirst();
  if (!row) throw notFound(`vendor ${vendorId} not found`);
  return row;
}

/** Changes the fields given (null clears an optional one); `archived` archives or restores. */
export async function updateVendor(db: Db, accountId: number, vendorId: number, patch: VendorPatch, now: Date): Promise<VendorRow> {
  await getVendor(db, accountId, vendorId);
  const name = patch.name === undefined ? undefined : requireName('name', patch.name);
  const iso = now.toISOString();
  const set: Updateable<VendorsTable> = { updated_at: iso };
  if (name !== undefined) {
    set.name = name;
    set.name_lower = name.toLowerCase();
  }
  const address = optionalText(patch.address);
  if (address !== undefined) set.address = address;
  const notes = optionalText(patch.notes);
  if (notes !== undefined) set.notes = notes;
  const contact = optionalText(patch.contact);
  if (contact !== undefined) set.contact = contact;
  if (patch.leadTimeDays !== undefined) set.lead_time_days = patch.leadTimeDays;
  if (patch.paymentWindowDays !== undefined) set.payment_window_days = patch.paymentWindowDays;

  if (patch.archived === false) set.archived_at = null;
  try {
    return await db
      .updateTable('vendors')
      .set(set)
      // Archiving an archived vendor keeps the time it was first archived.
      .$if(patch.archived === true, (qb) => qb.set({ archived_at: sql<string>`coalesce(archived_at, ${iso})` }))
      .where('account_id', '=', accountId)
      .where('id', '=', vendorId)
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error) && name !== undefined) throw nameTaken(name, accountId);
    throw error;
  }
}

/** Keyset position of a vendor list (ordered by id). */
export interface VendorListOptions {
  includeArchived: boolean;
  afterId: number | null;
  limit: number;
}

/** One page of the account's vendors by id; `next` is the last id when another page follows. */
export async function listVendors(db: Db, accountId: number, options: VendorListOptions): Promise<{ rows: VendorRow[]; next: number | null }> {
  let query = db.selectFrom('vendors').selectAll().where('account_id', '=', accountId);
  if (!options.includeArchived) query = query.where('archived_at', 'is', null);
  if (options.afterId !== null) query = query.where('id', '>', options.afterId);
  const rows = await query.orderBy('id').limit(options.limit + 1).execute();
  const page = rows.slice(0, options.limit);
  return { rows: page, next: rows.length > options.limit ? page[page.length - 1]!.id : null };
}

/**
 * The vendor an inbound shipment names (POST /v1/inbound-shipment `vendor_name`), created when the account
 * has none by that name. Safe under concurrency: the unique (account, lower-cased name) index decides and
 * the loser reads the winner. An archived vendor is refused: the seller archived it on purpose.
 */
export async function findOrCreateVendorByName(db: Db, accountId: number, rawName: string, now: Date): Promise<{ vendor: VendorRow; created: boolean }> {
  const name = requireName('vendor_name', rawName);
  const find = () =>
    db.selectFrom('vendors').selectAll().where('account_id', '=', accountId).where('name_lower', '=', name.toLowerCase()).executeTakeFirst();
  let vendor = await find();
  let created = false;
  if (!vendor) {
    await checkVendorCap(db, accountId, 'vendor_name');
    const iso = now.toISOString();
    vendor = await db
      .insertInto('vendors')
      .values(newVendorRow(accountId, name, iso, { name }))
      .onConflict((oc) => oc.columns(['account_id', 'name_lower']).doNothing())
      .returningAll()
      .executeTakeFirst();
    created = vendor !== undefined;
    vendor ??= await find();
    if (!vendor) throw new Error(`vendor "${name}" vanished after a conflicting insert`);
  }
  if (vendor.archived_at !== null) {
    throw invalidField(
      'vendor_name',
      `vendor "${vendor.name}" (${vendor.id}) is archived; restore it (PATCH /admin/accounts/${accountId}/vendors/${vendor.id} {"archived": false}) or name another vendor`,
    );
  }
  return { vendor, created };
}
