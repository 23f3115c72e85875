import type { Db } from '../../db/tx.js';
import { notFound } from '../errors.js';
import { kitRecipesOf, type KitComponent } from './kit-capacity.js';
import { getProductView, type ProductView } from './product-read.js';

/**
 * One product of the account by its id (the console's product page, issue 24): every catalog field as
 * imports and exports name them (getProductView), its attributes and, for a kit, its components. Another
 * account's id is not found, like a missing one.
 */
export interface ProductById {
  id: number;
  view: ProductView;
  components: KitComponent[];
}

export async function getProductById(db: Db, accountId: number, productId: number): Promise<ProductById> {
  const row = await db.selectFrom('products').select('sku').where('account_id', '=', accountId).where('id', '=', productId).executeTakeFirst();
  if (!row) throw notFound(`there is no product ${productId} in this account`);
  const [view, recipes] = await Promise.all([getProductView(db, accountId, row.sku), kitRecipesOf(db, accountId, [productId])]);
  return { id: productId, view, components: recipes.get(productId) ?? [] };
}
