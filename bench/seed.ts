/**
 * Bulk seeding shared by the benchmarks: direct multi-row INSERTs that produce the rows the service's own
 * writes would (so reads behave as on live data), orders of magnitude faster than through the API.
 */
import { PostgresAdapter, sql, type Insertable } from 'kysely';
import type { Database } from '../src/db/schema.js';
import { withTx, type Db } from '../src/db/tx.js';
import { newVersionId } from '../src/domain/listings/attributes.js';
import { newVariantRow } from '../src/domain/listings/write.js';
import type { Deps } from '../src/deps.js';
import { createAccount, issueSellerToken } from '../src/domain/accounts/accounts.js';
import { SCOPES } from '../src/domain/accounts/principal.js';
import { createWarehouse } from '../src/domain/accounts/warehouses.js';
import { productSearchRows } from '../src/domain/catalog/product-search.js';
import { countOrdersInDayFigures } from '../src/domain/orders/order-day-figures.js';
import { orderSearchRows } from '../src/domain/orders/order-search.js';
import { chunks, expectOk, installPartner } from './harness.js';

/** Rows per INSERT statement (the widest table has ~35 columns; SQLite allows 32 766 parameters). */
const ROWS_PER_INSERT = 400;
/** Orders per seeding transaction. */
export const ORDERS_PER_TX = 25_000;
/** Listings per seeding transaction. */
const LISTINGS_PER_TX = 5000;

/**
 * Clones the template order `count` times with direct multi-row INSERTs: each clone gets its own
 * channelOrderId, SKU pair (rotating over the stocked SKUs), and timestamps one second apart in the past
 * (so the listing, oldest lastUpdatedTs first, puts them before anything the create scenario adds).
 * Returns the units reserved per product id so the caller moves the inventory counters.
 */
export interface CloneOptions {
  /** Milliseconds between two clones' order dates (default 1,000). */
  spacingMs?: number;
  /** The customer (and ship-to) name of clone i (default: the template's). */
  customerName?: (i: number) => string;
}

export async function cloneOrders(
  db: Db,
  accountId: number,
  templateOrderId: number,
  count: number,
  productIds: number[],
  now: Date,
  skuName: (i: number) => string,
  { spacingMs = 1000, customerName }: CloneOptions = {},
) {
  const order = await db.selectFrom('sales_orders').selectAll().where('account_id', '=', accountId).where('id', '=', templateOrderId).executeTakeFirstOrThrow();
  const lines = await db.selectFrom('sales_order_lines').selectAll().where('order_id', '=', templateOrderId).orderBy('position').execute();
  const routes = await db.selectFrom('order_line_routes').selectAll().where('order_id', '=', templateOrderId).execute();
  const fulfillment = await db.selectFrom('fulfillment_orders').selectAll().where('order_id', '=', templateOrderId).executeTakeFirstOrThrow();
  const reservation = await db.selectFrom('inventory_reservations').selectAll().where('order_line_id', '=', lines[0]!.id).executeTakeFirstOrThrow();
  if (lines.length !== 2 || routes.length !== 2 || routes.some((r) => r.reserved_quantity !== r.quantity || r.warehouse_id !== fulfillment.warehouse_id)) {
    throw new Error('the template order is not 2 lines fully reserved in the shipping warehouse; raise the stock');
  }
  const maxId = async (table: 'sales_orders' | 'sales_order_lines' | 'order_line_routes' | 'inventory_reservations' | 'fulfillment_orders') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.max<number>('id').as('m')).executeTakeFirstOrThrow()).m ?? 0);
  let orderId = await maxId('sales_orders');
  let lineId = await maxId('sales_order_lines');
  let routeId = await maxId('order_line_routes');
  let reservationId = await maxId('inventory_reservations');
  let fulfillmentId = await maxId('fulfillment_orders');
  const reservedByProduct = new Map<number, number>();
  const oldest = now.getTime() - (count + 60) * spacingMs;

  for (let first = 0; first < count; first += ORDERS_PER_TX) {
    const n = Math.min(ORDERS_PER_TX, count - first);
    const orderRows: (typeof order)[] = [];
    const lineRows: (typeof lines)[number][] = [];
    const routeRows: (typeof routes)[number][] = [];
    const reservationRows: (typeof reservation)[] = [];
    const fulfillmentRows: (typeof fulfillment)[] = [];
    for (let k = 0; k < n; k++) {
      const i = first + k;
      const iso = new Date(oldest + i * spacingMs).toISOString();
      const id = ++orderId;
      const customer = customerName
        ? { customer_name: customerName(i), shipping_address: JSON.stringify({ ...(JSON.parse(order.shipping_address ?? '{}') as object), name: customerName(i) }) }
        : {};
      orderRows.push({ ...order, ...customer, id, channel_order_id: `SEED-${i}`, order_ts: iso, created_at: iso, last_updated_ts: iso });
      fulfillmentRows.push({ ...fulfillment, id: ++fulfillmentId, order_id: id, assigned_ts: iso, created_at: iso, last_updated_ts: iso });
      lines.forEach((line, position) => {
        const productIndex = (i + position) % productIds.length;
        const productId = productIds[productIndex]!;
        const sku = skuName(productIndex);
        const lid = ++lineId;
        lineRows.push({ ...line, id: lid, order_id: id, product_id: productId, sku, requested_sku: sku, created_at: iso, updated_at: iso });
        const route = routes.find((r) => r.line_id === line.id)!;
        routeRows.push({ ...route, id: ++routeId, order_id: id, line_id: lid, product_id: productId, routed_at: iso, updated_at: iso });
        reservationRows.push({ ...reservation, id: ++reservationId, order_line_id: lid, product_id: productId, quantity: route.reserved_quantity, routed_at: iso });
        reservedByProduct.set(productId, (reservedByProduct.get(productId) ?? 0) + route.reserved_quantity);
      });
    }
    await withTx(db, async (tx) => {
      for (const rows of chunks(orderRows, ROWS_PER_INSERT)) await tx.insertInto('sales_orders').values(rows).execute();
      for (const rows of chunks(lineRows, ROWS_PER_INSERT)) await tx.insertInto('sales_order_lines').values(rows).execute();
      for (const rows of chunks(routeRows, ROWS_PER_INSERT)) await tx.insertInto('order_line_routes').values(rows).execute();
      for (const rows of chunks(reservationRows, ROWS_PER_INSERT)) await tx.insertInto('inventory_reservations').values(rows).execute();
      for (const rows of chunks(fulfillmentRows, ROWS_PER_INSERT)) await tx.insertInto('fulfillment_orders').values(rows).execute();
      // What order creation writes for the console's search and total sort (src/domain/orders/order-search.ts).
      const search = orderSearchRows(accountId, orderRows, lineRows);
      for (const rows of chunks(search.terms, ROWS_PER_INSERT)) await tx.insertInto('sales_order_search_terms').values(rows).execute();
      for (const rows of chunks(search.totals, ROWS_PER_INSERT)) await tx.insertInto('sales_order_totals').values(rows).execute();
      // And the home chart's rollup (src/domain/orders/order-day-figures.ts).
      await countOrdersInDayFigures(
        tx,
        accountId,
        orderRows.map((o, k) => ({ order_ts: o.order_ts, status: o.status, total: search.totals[k]!.total })),
      );
    });
  }
  // PostgreSQL: the clones took explicit ids past each table's sequence; move the sequences past them, or the
  // service's next inserts would collide with a clone's id.
  await advanceSequences(db, ['sales_orders', 'sales_order_lines', 'order_line_routes', 'inventory_reservations', 'fulfillment_orders']);
  // The clones' reserved units leave available stock: one conditional UPDATE per SKU, as routing does.
  await withTx(db, async (tx) => {
    for (const [productId, units] of reservedByProduct) {
      const moved = await tx
        .updateTable('inventory')
        .set((eb) => ({ available_quantity: eb('available_quantity', '-', units), reserved_quantity: eb('reserved_quantity', '+', units) }))
        .where('account_id', '=', accountId)
        .where('product_id', '=', productId)
        .where('warehouse_id', '=', fulfillment.warehouse_id)
        .where('available_quantity', '>=', units)
        .returning('id')
        .executeTakeFirst();
      if (!moved) throw new Error(`not enough stock to seed reservations of product ${productId}`);
    }
  });
}

/** Whether `db` runs on PostgreSQL (seeding works on both databases; only sequences need care). */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * On PostgreSQL, sets each table's id sequence to its largest id (`setval(pg_get_serial_sequence(…), max(id))`)
 * after rows were inserted with explicit ids; nothing to do on SQLite, whose AUTOINCREMENT follows max(rowid).
 */
export async function advanceSequences(db: Db, tables: string[]): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of tables) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 1))`.execute(db);
  }
}

const attr = (value: object) => JSON.stringify(value);

const COLORS = ['Blue', 'Red', 'Green', 'Black', 'White'];
const THINGS = ['Mug', 'Cup', 'Bowl', 'Plate', 'Jug', 'Teapot', 'Vase', 'Tumbler', 'Saucer', 'Pitcher'];
const BRANDS = Array.from({ length: 50 }, (_, b) => `${['Acme', 'Northwind', 'Contoso', 'Fabrikam', 'Globex'][b % 5]} ${['Pottery', 'Home', 'Kitchen', 'Studio', 'Works', 'Goods', 'Living', 'Ceramics', 'Supply', 'Craft'][Math.floor(b / 5)]}`);

/** Catalog text of variant k of listing i: a title such as "Blue Teapot 4242", one of 50 brands, a price. */
export function catalogText(i: number, k: number): { title: string; brand: string; price: string } {
  return { title: `${COLORS[k % COLORS.length]} ${THINGS[i % THINGS.length]} ${i}`, brand: BRANDS[(i * 7 + k) % BRANDS.length]!, price: `${10 + (i % 40)}.50` };
}

/**
 * Clones the storefront's listings with direct INSERTs: listing i gets group SKU LST-i and variants
 * LST-i-k, each its own catalog product with `stock(i,k)` units in Main. Timestamps run one millisecond
 * apart in the past so the keyset walks distinct values (equal ones would work too; this is what live data
 * looks like).
 */
export async function seedListings(
  db: Db,
  accountId: number,
  storefrontId: number,
  mainId: number,
  listings: number,
  seededAt: Date,
  { perListing, drifting: driftingCount, catalog = false }: { perListing: number; drifting: number; catalog?: boolean },
) {
  const PER_LISTING = perListing;
  const DRIFTING = driftingCount;
  const stock = (i: number, k: number) => 10 + ((i * 7 + k * 3) % 90);
  let variantNumber = 0;
  for (let first = 0; first < listings; first += LISTINGS_PER_TX) {
    const n = Math.min(LISTINGS_PER_TX, listings - first);
    await withTx(db, async (tx) => {
      const products: Insertable<Database['products']>[] = [];
      for (let j = 0; j < n; j++) {
        const i = first + j;
        const iso = new Date(seededAt.getTime() + i).toISOString();
        for (let k = 0; k < PER_LISTING; k++) {
          const sku = `LST-${i}-${k}`;
          products.push({
            account_id: accountId,
            sku,
            sku_lower: sku.toLowerCase(),
            standard_product_id: null,
            standard_product_id_type: null,
            title: null,
            active: 1,
            inventory_updated_at: iso,
            created_at: iso,
            updated_at: iso,
            ...(catalog ? catalogText(i, k) : {}),
          });
        }
      }
      const productIds: number[] = [];
      for (const rows of chunks(products, ROWS_PER_INSERT)) productIds.push(...(await tx.insertInto('products').values(rows).returning('id').execute()).map((r) => r.id));
      // The catalog search's words, as the service's product writers add them (src/domain/catalog/product-search.ts).
      const terms = productSearchRows(
        accountId,
        products.map((p, index) => ({ id: productIds[index]!, sku: p.sku, title: p.title ?? null, brand: p.brand ?? null })),
      );
      for (const rows of chunks(terms, ROWS_PER_INSERT)) await tx.insertInto('product_search_terms').values(rows).execute();
      const inventory = productIds.map((productId, p) => {
        const qty = stock(first + Math.floor(p / PER_LISTING), p % PER_LISTING);
        return { account_id: accountId, product_id: productId, warehouse_id: mainId, available_quantity: qty, onhand_quantity: qty, reserved_quantity: 0, assembled_quantity: null, bin_location: null, observed_at: null, updated_at: products[p]!.updated_at };
      });
      for (const rows of chunks(inventory, ROWS_PER_INSERT)) await tx.insertInto('inventory').values(rows).execute();

      const listingRows: Insertable<Database['listings']>[] = [];
      for (let j = 0; j < n; j++) {
        const i = first + j;
        const iso = new Date(seededAt.getTime() + i).toISOString();
        listingRows.push({ account_id: accountId, storefront_id: storefrontId, sku: `LST-${i}`, product_data_enabled: 1, category_id: 'kitchen', product_type_id: 'mug', pivot_attributes: '["color"]', swatch_image_attribute_ids: '[]', product_data_updated_at: iso, channel_listing_id: null, has_channel_id: 1, poll_updated_at: iso, created_at: iso, updated_at: iso });
      }
      const listingIds: number[] = [];
      for (const rows of chunks(listingRows, ROWS_PER_INSERT)) listingIds.push(...(await tx.insertInto('listings').values(rows).returning('id').execute()).map((r) => r.id));

      const variants: Insertable<Database['listing_variants']>[] = [];
      productIds.forEach((productId, p) => {
        const j = Math.floor(p / PER_LISTING);
        const k = p % PER_LISTING;
        const i = first + j;
        const iso = listingRows[j]!.poll_updated_at;
        const qty = stock(i, k);
        const drifting = variantNumber++ < DRIFTING;
        variants.push(
          newVariantRow({ account_id: accountId, storefront_id: storefrontId, listing_id: listingIds[j]!, product_id: productId, sku: `LST-${i}-${k}` }, iso, {
            position: k,
            channel_id: `CH-${i}-${k}`,
            merchant_quantity: qty,
            warehouse_quantities: JSON.stringify([{ warehouseId: String(mainId), quantity: qty }]),
            last_sent_quantity: drifting ? qty + 1 : qty,
            last_sent_at: iso,
            drifting: drifting ? 1 : 0,
            status: 'STANDARD_STATUS_PUBLISHED',
            buyable: 1,
          }),
        );
      });
      const variantIds: number[] = [];
      for (const rows of chunks(variants, ROWS_PER_INSERT)) variantIds.push(...(await tx.insertInto('listing_variants').values(rows).returning('id').execute()).map((r) => r.id));

      const attributes: Insertable<Database['listing_attributes']>[] = [];
      listingIds.forEach((id, j) => {
        const iso = listingRows[j]!.poll_updated_at;
        attributes.push(
          { account_id: accountId, owner_type: 'L', owner_id: id, group_name: 'product_data', attribute_id: 'title', position: 0, value: attr({ textValue: `Mug ${first + j}` }), version_id: newVersionId(), updated_at: iso, submitted_at: null },
          { account_id: accountId, owner_type: 'L', owner_id: id, group_name: 'product_data', attribute_id: 'description', position: 1, value: attr({ textValue: 'A mug that holds 350 ml of tea, coffee or anything else.' }), version_id: newVersionId(), updated_at: iso, submitted_at: null },
        );
      });
      variantIds.forEach((id, p) => {
        const iso = variants[p]!.updated_at;
        attributes.push(
          { account_id: accountId, owner_type: 'V', owner_id: id, group_name: 'product_data', attribute_id: 'color', position: 0, value: attr({ textValue: `color-${p % PER_LISTING}` }), version_id: newVersionId(), updated_at: iso, submitted_at: null },
          { account_id: accountId, owner_type: 'V', owner_id: id, group_name: 'pricing', attribute_id: 'price', position: 0, value: attr({ moneyValue: { amount: '12.50', currencyCode: 'USD' } }), version_id: newVersionId(), updated_at: iso, submitted_at: null },
        );
      });
      for (const rows of chunks(attributes, ROWS_PER_INSERT)) await tx.insertInto('listing_attributes').values(rows).execute();
    });
    process.stdout.write(`seeded listings ${first + n}/${listings}\n`);
  }
}


/** The SKU names seedOrderAccount stocks (as bench/orders.ts and bench/console.ts name them). */
const ADDRESS = { name: 'Ada Buyer', addressLine1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', countryCode: 'US' };

/**
 * The benchmarks' order: 2 lines (1 × skuA at 19.99, 2 × skuB at 5.00) for POST /v1/salesOrder; a channelOrderId
 * holding "[<id>]" is made unique per request by autocannon.
 */
export function twoLineOrderBody(channelOrderId: string, orderTs: string, skuA: string, skuB: string): string {
  return JSON.stringify({
    channelOrderId,
    orderTs,
    customerName: 'Ada Buyer',
    shippingAddress: ADDRESS,
    products: [
      { sku: skuA, quantity: 1, unitPrice: '19.99', channelLineItemId: 'L1' },
      { sku: skuB, quantity: 2, unitPrice: '5.00', channelLineItemId: 'L2' },
    ],
  });
}

export const orderSkuName = (i: number) => `ORD-${String(i).padStart(4, '0')}`;
const orderSkuItem = (i: number) => ({ SKU: orderSkuName(i), standardProductId: String(200000000000 + i), standardProductIdType: 'UPC' });

export interface SkuItem {
  SKU: string;
  standardProductId: string;
  standardProductIdType: string;
}

/**
 * Stocks the warehouse "Main" with `quantity` of each SKU through POST /v1/inventory, 50 items a request
 * (the caller's token must be allowed to write Main's stock); answers the products' ids in `items` order.
 */
export async function stockMain(db: Db, base: string, headers: Record<string, string>, accountId: number, items: SkuItem[], quantity: number): Promise<number[]> {
  for (let first = 0; first < items.length; first += 50) {
    const batch = items.slice(first, first + 50).map((item) => ({ ...item, quantity }));
    const body = (await expectOk(
      await fetch(`${base}/v1/inventory`, { method: 'POST', headers, body: JSON.stringify({ warehouseName: 'Main', items: batch }) }),
      'POST /v1/inventory (stocking)',
    )) as { results: { success: boolean; errorMessage: string }[] };
    const failed = body.results.find((r) => !r.success);
    if (failed) throw new Error(`stocking failed: ${failed.errorMessage}`);
  }
  const products = await db.selectFrom('products').select(['id', 'sku']).where('account_id', '=', accountId).execute();
  const idBySku = new Map(products.map((p) => [p.sku, p.id]));
  return items.map((item) => idBySku.get(item.SKU)!);
}

/**
 * A whole order account, as bench/orders.ts sets it up: an account with a warehouse "Main" mapped to a SHIPPING
 * integration, a storefront ("Shop One", a SALES_CHANNEL app with listing and order scopes), `skus` SKUs stocked
 * in Main through POST /v1/inventory, one 2-line order through POST /v1/salesOrder, and `orders − 1` clones of it
 * (cloneOrders): `orders` open orders in all, placed one second apart in the past. Works on both databases.
 */
export async function seedOrderAccount(deps: Deps, base: string, { orders, skus = 200, clones = {} }: { orders: number; skus?: number; clones?: CloneOptions }) {
  const db = deps.db.db;
  const now = deps.clock.now();
  const { accountId } = await createAccount(db, { name: 'Bench seller' }, now);
  const mainId = (await createWarehouse(db, accountId, { name: 'Main' }, now)).warehouseId;
  const { accessToken: sellerToken } = await issueSellerToken(db, accountId, [...SCOPES], now);
  const shipping = await installPartner(deps, base, accountId, 'SHIPPING', ['sales:orders:fulfillment:self'], {
    name: 'Bench shipper',
    warehouses: [{ warehouseId: mainId, warehouseUniqueId: 'SHIP-MAIN' }],
  });
  const channel = await installPartner(deps, base, accountId, 'SALES_CHANNEL', ['listing:self', 'sales:orders:self'], { name: 'Bench channel', storefrontName: 'Shop One' });
  const sellerHeaders = { authorization: `Bearer ${sellerToken}`, 'content-type': 'application/json' };
  const productIds = await stockMain(db, base, sellerHeaders, accountId, Array.from({ length: skus }, (_, i) => orderSkuItem(i)), 1_000_000);
  const template = (await expectOk(
    await fetch(`${base}/v1/salesOrder`, {
      method: 'POST',
      headers: { authorization: `Bearer ${channel.token}`, 'content-type': 'application/json' },
      body: twoLineOrderBody('TEMPLATE', new Date(now.getTime() - 3_600_000).toISOString(), orderSkuName(0), orderSkuName(1)),
    }),
    'POST /v1/salesOrder (template)',
  )) as { orderNumber: string };
  if (orders > 1) await cloneOrders(db, accountId, Number(template.orderNumber), orders - 1, productIds, now, orderSkuName, clones);
  await keepStatistics(deps);
  return { accountId, mainId, sellerToken, shipping, channel, productIds, templateOrderNumber: template.orderNumber };
}

/**
 * The planner statistics a running service has for data it holds: the clones went in by direct INSERTs
 * within a second, and the runs start right after. SQLite: the service's own PRAGMA optimize (at start and
 * every ten minutes, src/db/connect.ts); PostgreSQL: what autovacuum's analyze would have gathered.
 */
export async function keepStatistics(deps: Deps): Promise<void> {
  const raw = deps.db.raw;
  if ('sqlite' in raw) raw.sqlite.pragma('optimize=0x10002');
  else await sql`analyze`.execute(deps.db.db);
}
