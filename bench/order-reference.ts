/**
 * The reference beside bench:orders' create scenario (issue 13): the same order-shaped transaction written
 * directly against better-sqlite3 with prepared statements, on the service's own database file and schema
 * (every table and index the service has), one connection, no HTTP, no validation, no views. What an order
 * costs the database alone on this machine: the floor the service's create route is compared with.
 *
 * Per order: BEGIN; insert the order and its 2 lines; per line pick the warehouse with the most available
 * units, reserve them with the conditional UPDATE, record the ledger row and the route; insert the
 * fulfillment order; read the order, its lines and routes back; COMMIT.
 */
import type SQLite from 'better-sqlite3';

export interface ReferenceContext {
  accountId: number;
  storefrontId: number;
  installationId: number;
  productIds: [number, number][];
}

export interface ReferenceResult {
  orders: number;
  seconds: number;
  ordersPerSecond: number;
}

/** `run` keeps the channel order ids of several runs on one database apart. */
export function runOrderReference(sqlite: SQLite.Database, context: ReferenceContext, seconds: number, run = 0): ReferenceResult {
  const insertOrder = sqlite.prepare(
    `insert into sales_orders (account_id, storefront_id, channel_key, channel, channel_label, channel_order_id, status, paid, order_ts,
       standard_service_level, accounting, shipping_address, billing_address, fba, channel_will_fulfill, prime, business_order, created_at,
       last_updated_ts)
     values (?, ?, ?, 'Bench channel', 'Shop One', ?, 'PENDING', 1, ?, 'STANDARD', null, ?, null, 0, 0, 0, 0, ?, ?) returning id`,
  );
  const insertLines = sqlite.prepare(
    `insert into sales_order_lines (account_id, order_id, position, status, requested_sku, product_id, sku, quantity, cancel_quantity,
       shipped_quantity, returned_quantity, unit_price, created_at, updated_at)
     values (?, ?, 0, 'PENDING', ?, ?, ?, 1, 0, 0, 0, '12.50', ?, ?), (?, ?, 1, 'PENDING', ?, ?, ?, 2, 0, 0, 0, '3.25', ?, ?) returning id`,
  );
  const skuOf = sqlite.prepare('select sku from products where id = ?').pluck();
  const pick = sqlite.prepare(
    `select warehouse_id, available_quantity from inventory where account_id = ? and product_id = ? and available_quantity > 0
     order by available_quantity desc, warehouse_id limit 1`,
  );
  const reserve = sqlite.prepare(
    `update inventory set available_quantity = available_quantity - ?, reserved_quantity = reserved_quantity + ?, updated_at = ?
     where account_id = ? and product_id = ? and warehouse_id = ? and available_quantity >= ?`,
  );
  const ledger = sqlite.prepare(
    'insert into inventory_reservations (account_id, product_id, warehouse_id, order_line_id, quantity, routed_at) values (?, ?, ?, ?, ?, ?)',
  );
  const route = sqlite.prepare(
    `insert into order_line_routes (account_id, order_id, line_id, warehouse_id, product_id, quantity, reserved_quantity, backorder_quantity,
       shipped_quantity, cancelled_quantity, assembled_quantity, routed_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, 0, 0, 0, null, ?, ?)`,
  );
  const fulfillment = sqlite.prepare(
    `insert into fulfillment_orders (account_id, order_id, warehouse_id, installation_id, status, assigned_ts, created_at, last_updated_ts)
     values (?, ?, ?, ?, 'NEW', ?, ?, ?)`,
  );
  const readOrder = sqlite.prepare('select * from sales_orders where id = ?');
  const readLines = sqlite.prepare('select * from sales_order_lines where account_id = ? and order_id = ? order by position');
  const readRoutes = sqlite.prepare('select * from order_line_routes where account_id = ? and order_id = ?');
  const skus = new Map<number, string>();
  const skuFor = (id: number) => {
    let sku = skus.get(id);
    if (sku === undefined) skus.set(id, (sku = skuOf.get(id) as string));
    return sku;
  };
  const address = JSON.stringify({ name: 'Bench Buyer', addressLine1: '1 Main St', city: 'Springfield', postalCode: '12345', countryCode: 'US' });
  const { accountId, storefrontId, installationId } = context;

  const placeOrder = sqlite.transaction((n: number) => {
    const iso = new Date().toISOString();
    const [first, second] = context.productIds[n % context.productIds.length]!;
    const { id: orderId } = insertOrder.get(accountId, storefrontId, `s:${storefrontId}`, `REF-${run}-${n}`, iso, address, iso, iso) as { id: number };
    const lineIds = (insertLines.all(accountId, orderId, skuFor(first), first, skuFor(first), iso, iso, accountId, orderId, skuFor(second), second, skuFor(second), iso, iso) as { id: number }[]).map(
      (r) => r.id,
    );
    let warehouseId = 0;
    [first, second].forEach((productId, i) => {
      const quantity = i + 1;
      const top = pick.get(accountId, productId) as { warehouse_id: number } | undefined;
      if (!top) throw new Error('reference: no stock');
      warehouseId = top.warehouse_id;
      if (reserve.run(quantity, quantity, iso, accountId, productId, warehouseId, quantity).changes !== 1) throw new Error('reference: reservation failed');
      ledger.run(accountId, productId, warehouseId, lineIds[i], quantity, iso);
      route.run(accountId, orderId, lineIds[i], warehouseId, productId, quantity, quantity, iso, iso);
    });
    fulfillment.run(accountId, orderId, warehouseId, installationId, iso, iso, iso);
    readOrder.get(orderId);
    readLines.all(accountId, orderId);
    readRoutes.all(accountId, orderId);
  });

  const started = performance.now();
  const deadline = started + seconds * 1000;
  let orders = 0;
  while (performance.now() < deadline) placeOrder(orders++);
  const elapsed = (performance.now() - started) / 1000;
  return { orders, seconds: elapsed, ordersPerSecond: orders / elapsed };
}
