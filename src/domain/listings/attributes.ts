import type { Db, Tx } from '../../db/tx.js';
import type { DbHandle } from '../../db/connect.js';
import { randomHex } from '../../lib/crypto.js';
import { selectRows } from '../../db/fast-paths.js';
import { canonicalValue, valueOf } from './attribute-input.js';
import type { AttributeGroupName, AttributeInput, AttributeOwnerType, AttributeValue, AttributeValueKinds } from './model.js';
import { accountFilterById } from '../../db/tenancy.js';

export { checkAttributeInputs } from './attribute-input.js';

/**
 * Versioned attribute values (DESIGN.md "Listing"): one listing_attributes row per (owner, group, id).
 * A value gets a fresh versionId and updatedAt only when it differs from the stored one, so a seller
 * saving the same title twice does not make the channel resend it.
 */

export interface AttributeOwner {
  type: AttributeOwnerType;
  id: number;
}

/** A new version id: 96 random bits, hex (opaque to partners). */
export function newVersionId(): string {
  return randomHex(12);
}

/**
 * Writes a group's values. 'merge' replaces the values whose ids are given and keeps the others;
 * 'replace' makes the group exactly `attrs`; 'new' writes the values of an owner inserted in this transaction
 * (it has none yet, so nothing is read: creating a listing wrote nine reads of empty groups before). Returns true
 * when anything changed.
 */
export async function writeAttributes(
  tx: Tx,
  accountId: number,
  owner: AttributeOwner,
  group: AttributeGroupName,
  attrs: AttributeInput[],
  now: Date,
  mode: 'merge' | 'replace' | 'new',
): Promise<boolean> {
  if (mode === 'new' && attrs.length === 0) return false;
  const iso = now.toISOString();
  const existing =
    mode === 'new'
      ? []
      : await tx
          .selectFrom('listing_attributes')
          .select(['id', 'attribute_id', 'value', 'position'])
          .where('account_id', '=', accountId)
          .where('owner_type', '=', owner.type)
          .where('owner_id', '=', owner.id)
          .where('group_name', '=', group)
          .execute();
  const byId = new Map(existing.map((r) => [r.attribute_id, r]));
  let changed = false;
  let nextPosition = existing.reduce((max, r) => Math.max(max, r.position + 1), 0);

  for (const [index, attr] of attrs.entries()) {
    const value = canonicalValue(valueOf(attr));
    const position = mode === 'merge' ? undefined : index;
    const current = byId.get(attr.id);
    if (!current) {
      await tx
        .insertInto('listing_attributes')
        .values({
          account_id: accountId,
          owner_type: owner.type,
          owner_id: owner.id,
          group_name: group,
          attribute_id: attr.id,
          position: position ?? nextPosition++,
          value,
          version_id: newVersionId(),
          updated_at: iso,
          submitted_at: null,
        })
        .execute();
      changed = true;
    } else if (current.value !== value) {
      await tx
        .updateTable('listing_attributes')
        .set({ value, version_id: newVersionId(), updated_at: iso, submitted_at: null, ...(position !== undefined ? { position } : {}) })
        .where('account_id', '=', accountId)
        .where('id', '=', current.id)
        .execute();
      changed = true;
    } else if (position !== undefined && current.position !== position) {
      // Order is presentation only: it does not make a new version.
      await tx.updateTable('listing_attributes').set({ position }).where('account_id', '=', accountId).where('id', '=', current.id).execute();
    }
  }

  if (mode === 'replace') {
    const keep = new Set(attrs.map((a) => a.id));
    const gone = existing.filter((r) => !keep.has(r.attribute_id)).map((r) => r.id);
    if (gone.length > 0) {
      await tx.deleteFrom('listing_attributes').where(accountFilterById(accountId)).where('id', 'in', gone).execute();
      changed = true;
    }
  }
  return changed;
}

/** Removes every value of the owners (listing or variant deletion). */
export async function deleteAttributes(tx: Tx, accountId: number, type: AttributeOwnerType, ownerIds: number[]): Promise<void> {
  if (ownerIds.length === 0) return;
  await tx
    .deleteFrom('listing_attributes')
    .where('account_id', '=', accountId)
    .where('owner_type', '=', type)
    .where('owner_id', 'in', ownerIds)
    .execute();
}

export type AttributeGroups = Map<AttributeGroupName, AttributeValue[]>;

/** Key of an owner in the map loadAttributes returns. */
export const ownerKey = (type: AttributeOwnerType, id: number) => `${type}${id}`;

/** Every value of the owners, grouped: ownerKey → group → values in position order; `handle` as in loadListingViews. */
export async function loadAttributes(db: Db, accountId: number, owners: AttributeOwner[], handle?: DbHandle): Promise<Map<string, AttributeGroups>> {
  const result = new Map<string, AttributeGroups>();
  const listingIds = owners.filter((o) => o.type === 'L').map((o) => o.id);
  const variantIds = owners.filter((o) => o.type === 'V').map((o) => o.id);
  for (const [type, ids] of [
    ['L', listingIds],
    ['V', variantIds],
  ] as const) {
    // Chunked so a page of 100 variants never builds an IN list past the databases' parameter limits.
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const rows = await selectRows(
        db,
        handle,
        db
          .selectFrom('listing_attributes')
          .select(['id', 'position', 'owner_id', 'group_name', 'attribute_id', 'value', 'version_id', 'updated_at', 'submitted_at'])
          .where('account_id', '=', accountId)
          .where('owner_type', '=', type)
          .where('owner_id', 'in', chunk)
          .orderBy('owner_id')
          .orderBy('group_name'),
      );
      // The index gives (owner, group) order; position and id are sorted here, which on SQLite costs far
      // less than the temporary B-tree an ORDER BY on them takes. Group names are ASCII, so `<` orders
      // them as the databases do.
      rows.sort(
        (a, b) =>
          a.owner_id - b.owner_id || (a.group_name < b.group_name ? -1 : a.group_name > b.group_name ? 1 : 0) || a.position - b.position || a.id - b.id,
      );
      for (const r of rows) {
        const key = ownerKey(type, r.owner_id);
        let groups = result.get(key);
        if (!groups) result.set(key, (groups = new Map()));
        const group = r.group_name as AttributeGroupName;
        let list = groups.get(group);
        if (!list) groups.set(group, (list = []));
        list.push({
          id: r.attribute_id,
          ...(JSON.parse(r.value) as AttributeValueKinds),
          versionId: r.version_id,
          updatedAt: r.updated_at,
          submittedAt: r.submitted_at,
        });
      }
    }
  }
  return result;
}

/**
 * Stamps submittedAt on the named versions (2.13 submittedAttributeVersionIds), limited to versions owned
 * by the storefront's own listings and variants. A version id that no longer exists (the value changed
 * since) is ignored: that version is gone, so there is nothing to stamp. Returns the rows stamped.
 */
export async function stampSubmittedAt(tx: Tx, accountId: number, storefrontId: number, versionIds: string[], atIso: string): Promise<number> {
  const ids = [...new Set(versionIds.filter((v) => v !== ''))];
  if (ids.length === 0) return 0;
  let stamped = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const result = await tx
      .updateTable('listing_attributes')
      .set({ submitted_at: atIso })
      .where('account_id', '=', accountId)
      .where('version_id', 'in', chunk)
      .where((eb) =>
        eb.or([
          eb.and([
            eb('owner_type', '=', 'L'),
            eb(
              'owner_id',
              'in',
              eb.selectFrom('listings').select('id').where('account_id', '=', accountId).where('storefront_id', '=', storefrontId),
            ),
          ]),
          eb.and([
            eb('owner_type', '=', 'V'),
            eb(
              'owner_id',
              'in',
              eb.selectFrom('listing_variants').select('id').where('account_id', '=', accountId).where('storefront_id', '=', storefrontId),
            ),
          ]),
        ]),
      )
      .executeTakeFirst();
    stamped += Number(result.numUpdatedRows);
  }
  return stamped;
}
