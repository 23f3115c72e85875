import type { Db } from '../../../db/tx.js';
import { listAccountWarehouses } from '../../accounts/warehouses.js';
import { PRODUCT_FIELDS } from '../../catalog/product-fields.js';
import type { ImportType } from '../model.js';
import { COLUMNS as INVENTORY_COLUMNS } from './inventory.js';
import { COLUMNS as KIT_COLUMNS } from './kits.js';
import { COLUMNS as ORDER_COLUMNS, REQUIRED_ADDRESS_COLUMNS, REQUIRED_COLUMNS as REQUIRED_ORDER_COLUMNS } from './orders-row.js';

/**
 * What a seller needs to write an import file of each type: its name in a seller's words, what it does, its
 * columns (the same lists the imports read, so a guide cannot name a column the import ignores) and a sample.
 * The console serves a header-only template and the sample as CSV files (src/http/console/seller/reports).
 */

export interface GuideColumn {
  name: string;
  /** "required", "optional" or a condition in words ("one of three", "with an address"). */
  need: string;
  meaning: string;
}

export interface ImportGuide {
  type: ImportType;
  /** The type in a seller's words. */
  title: string;
  summary: string;
  columns: GuideColumn[];
  /** More columns than `columns` lists (a product's attributes). */
  extra: string | null;
  /** Sample lines under the header (cells in `columns` order). */
  sample: string[][];
}

/** Each import type in a seller's words: the guides' headings, the forms' options, the reports' lists. */
export const IMPORT_TYPE_TITLES: Record<ImportType, string> = {
  Inventory: 'Stock levels',
  TemplatelessProduct: 'Products',
  FullProductData: 'Products, through a saved column template',
  Kits: 'Kits',
  Orders: 'Orders',
};

/** What the sample rows can use from the seller's own data, so the sample validates on their account. */
export interface SampleData {
  /** A warehouse whose stock the seller sets (not one an app controls), by name. */
  warehouseName: string | null;
  /** Up to three of the seller's SKUs. */
  skus: string[];
}

const INVENTORY_MEANINGS: Record<(typeof INVENTORY_COLUMNS)[number], GuideColumn> = {
  sku: { name: 'sku', need: 'required', meaning: 'the SKU whose stock the line sets' },
  warehouse: { name: 'warehouse', need: 'required', meaning: 'the warehouse, by its number or its name' },
  quantity: { name: 'quantity', need: 'one of these three', meaning: 'sets the units available to sell' },
  onhand_quantity: { name: 'onhand_quantity', need: 'one of these three', meaning: 'sets the units on the shelf; available = on the shelf − held for orders' },
  delta_quantity: { name: 'delta_quantity', need: 'one of these three', meaning: 'adds units (a minus sign removes them; never below zero)' },
  bin_location: { name: 'bin_location', need: 'optional', meaning: 'where the units sit in the warehouse' },
};

const KIT_MEANINGS: Record<(typeof KIT_COLUMNS)[number], GuideColumn> = {
  kit_sku: { name: 'kit_sku', need: 'required', meaning: 'the kit (a SKU sold as a set)' },
  component_sku: { name: 'component_sku', need: 'required', meaning: 'one SKU the kit is made of' },
  quantity: { name: 'quantity', need: 'required', meaning: 'how many of that SKU go into one kit' },
};

const ORDER_MEANINGS: Record<(typeof ORDER_COLUMNS)[number], string> = {
  channel_order_id: 'your order number; the lines of one order share it',
  order_ts: 'when the order was placed, with its time zone (2026-11-20T14:03:00Z)',
  customer_name: "the buyer's name",
  customer_email: "the buyer's email",
  ship_name: 'who the parcel goes to',
  ship_address1: 'street and number',
  ship_address2: 'apartment, suite…',
  ship_city: 'city',
  ship_state: 'state or region',
  ship_postal_code: 'postal code',
  ship_country: 'two-letter country code (US, GB…)',
  requested_service_level: 'the shipping speed the buyer chose',
  sku: 'the SKU ordered',
  quantity: 'units of that SKU',
  unit_price: 'price of one unit',
};

function orderNeed(column: (typeof ORDER_COLUMNS)[number]): string {
  if ((REQUIRED_ORDER_COLUMNS as readonly string[]).includes(column)) return 'required';
  if ((REQUIRED_ADDRESS_COLUMNS as readonly string[]).includes(column)) return 'required with an address';
  return 'optional';
}

/** The product columns a file may bring (read-only ones such as created_at are ignored on import). */
const PRODUCT_COLUMNS: GuideColumn[] = PRODUCT_FIELDS.filter((f) => !f.readOnly).map((f) => ({
  name: f.name,
  need: f.name === 'sku' ? 'required' : 'optional',
  meaning: productMeaning(f.name, f.kind, f.values),
}));

function productMeaning(name: string, kind: string, values: readonly string[] | undefined): string {
  if (name === 'sku') return 'the SKU (the key of each line)';
  if (name === 'active') return 'TRUE or FALSE: whether the product is sold';
  if (values) return `one of ${values.join(', ')}`;
  if (kind === 'decimal') return 'a number such as 9.90';
  if (kind === 'identifier') return 'digits only';
  return 'text';
}

/** The seller's SKUs in turn (so a sample names only SKUs they have), or placeholders when they have none. */
const sku = (data: SampleData, i: number, fallback: string) => (data.skus.length > 0 ? data.skus[i % data.skus.length]! : fallback);

/** Every import type's guide, with samples built from the seller's data where it helps. */
export function importGuides(data: SampleData): ImportGuide[] {
  const warehouse = data.warehouseName ?? 'Main';
  const [a, b, c] = [sku(data, 0, 'MUG-RED'), sku(data, 1, 'MUG-BLUE'), sku(data, 2, 'TEE-M')];
  return [
    {
      type: 'Inventory',
      title: IMPORT_TYPE_TITLES.Inventory,
      summary: 'Sets or adjusts the stock of SKUs in your warehouses. Each line fills exactly one of quantity, onhand_quantity or delta_quantity.',
      columns: INVENTORY_COLUMNS.map((col) => INVENTORY_MEANINGS[col]),
      extra: null,
      sample: [
        [a, warehouse, '25', '', '', 'A-01-3'],
        [b, warehouse, '', '40', '', 'A-01-4'],
        [a, warehouse, '', '', '-2', ''],
      ],
    },
    {
      type: 'TemplatelessProduct',
      title: IMPORT_TYPE_TITLES.TemplatelessProduct,
      summary: 'Creates and updates products by SKU. Only the columns in your file change.',
      columns: PRODUCT_COLUMNS,
      extra: 'Any other column is a product attribute (color, size…), named by its header.',
      sample: [productSample(a, 'Red mug', '9.90'), productSample(b, 'Blue mug', '9.90')],
    },
    {
      type: 'FullProductData',
      title: IMPORT_TYPE_TITLES.FullProductData,
      summary: 'Like Products, but your own column names are matched through one of your saved templates (choose it in the import form).',
      columns: PRODUCT_COLUMNS,
      extra: 'Your template says which of your columns is which; the names above are what your columns map to.',
      sample: [productSample(a, 'Red mug', '9.90'), productSample(b, 'Blue mug', '9.90')],
    },
    {
      type: 'Kits',
      title: IMPORT_TYPE_TITLES.Kits,
      summary: 'Says which SKUs each kit is made of: one line per component. A kit in the file gets exactly the components listed. A kit SKU that is not in your catalog yet needs "Create SKUs that do not exist".',
      columns: KIT_COLUMNS.map((col) => KIT_MEANINGS[col]),
      extra: null,
      sample: [
        ['GIFT-SET', a, '1'],
        ['GIFT-SET', b, '1'],
      ],
    },
    {
      type: 'Orders',
      title: IMPORT_TYPE_TITLES.Orders,
      summary: 'Enters orders taken elsewhere into a custom store: one line per SKU ordered; the lines of one order share its order number.',
      columns: ORDER_COLUMNS.map((col) => ({ name: col, need: orderNeed(col), meaning: ORDER_MEANINGS[col] })),
      extra: null,
      sample: [
        orderSample('POS-1001', a, '2', '9.90'),
        orderSample('POS-1001', c, '1', '19.00'),
      ],
    },
  ];
}

function productSample(skuValue: string, title: string, price: string): string[] {
  return PRODUCT_COLUMNS.map((col) => (col.name === 'sku' ? skuValue : col.name === 'title' ? title : col.name === 'price' ? price : col.name === 'active' ? 'TRUE' : ''));
}

function orderSample(orderId: string, skuValue: string, quantity: string, price: string): string[] {
  const cells: Record<string, string> = {
    channel_order_id: orderId,
    order_ts: '2026-11-20T14:03:00Z',
    customer_name: 'Ada Lovelace',
    customer_email: 'ada@example.com',
    ship_name: 'Ada Lovelace',
    ship_address1: '12 Analytical St',
    ship_city: 'London',
    ship_postal_code: 'N1 9GU',
    ship_country: 'GB',
    sku: skuValue,
    quantity,
    unit_price: price,
  };
  return ORDER_COLUMNS.map((col) => cells[col] ?? '');
}

/** The guide of one type (import types are a closed list, so there always is one). */
export function importGuide(type: ImportType, data: SampleData): ImportGuide {
  return importGuides(data).find((g) => g.type === type)!;
}

/**
 * The seller's data the samples use: a warehouse whose stock the seller sets themselves (not one an app
 * controls, nor one the channel fulfils) and their first SKUs, so a sample imports on their account as it is.
 */
export async function sampleDataOf(db: Db, accountId: number): Promise<SampleData> {
  const warehouses = await listAccountWarehouses(db, accountId);
  const own = warehouses.filter((w) => w.controlledBy === null && !w.channelFulfilled).sort((a, b) => a.id - b.id)[0] ?? null;
  const products = await db.selectFrom('products').select('sku').where('account_id', '=', accountId).orderBy('sku').limit(3).execute();
  return { warehouseName: own?.name ?? null, skus: products.map((p) => p.sku) };
}
