import type { Db } from '../../db/tx.js';
import { notFound } from '../errors.js';
import { PRODUCT_FIELDS } from './product-fields.js';

/**
 * A product as files name its fields (product-fields.ts): every field by its file name, `active` a boolean,
 * the rest text or null, plus the seller's attributes {<id>: <value>}. What an import wrote reads back here.
 */
export interface ProductView {
  sku: string;
  active: boolean;
  attributes: Record<string, string>;
  [field: string]: string | boolean | null | Record<string, string>;
}

export async function getProductView(db: Db, accountId: number, sku: string): Promise<ProductView> {
  const row = (await db
    .selectFrom('products')
    .select(['id', ...PRODUCT_FIELDS.map((f) => f.column)])
    .where('account_id', '=', accountId)
    .where('sku', '=', sku)
    .executeTakeFirst()) as Record<string, unknown> | undefined;
  if (!row) throw notFound(`product ${JSON.stringify(sku)} not found in this account`);
  const attributes = await db
    .selectFrom('product_attributes')
    .select(['attribute_id', 'value'])
    .where('account_id', '=', accountId)
    .where('product_id', '=', row.id as number)
    .orderBy('attribute_id')
    .execute();
  const view: ProductView = { sku: row.sku as string, active: Number(row.active) === 1, attributes: {} };
  for (const field of PRODUCT_FIELDS) {
    if (field.name === 'sku' || field.name === 'active') continue;
    const value = row[field.column];
    view[field.name] = value === null || value === undefined ? null : String(value);
  }
  view.attributes = Object.fromEntries(attributes.map((a) => [a.attribute_id, a.value]));
  return view;
}
