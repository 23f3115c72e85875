/**
 * The PostgreSQL reference beside bench:orders' create scenario (issue 26 item 1): the order-shaped
 * transaction of bench/order-reference.ts written directly against node-postgres, on the service's own
 * migrated schema (every table and index the service has, reached through the benchmark's DATABASE_URL), no
 * HTTP, no validation, no views. What an order costs the database alone on this machine, with the round trips
 * a plain driver needs: the floor the service's create route is compared with.
 *
 * `clients` connections (default 10, as autocannon's 10 connections against the route) each run orders one
 * after another until the deadline; a statement waits for the one before it (no pipelining, no multi-statement
 * text). Every statement is a named prepared statement (`{ name, text, values }`), parsed once per connection.
 *
 * Per order (16 round trips): BEGIN; insert the order and its 2 lines; per line pick the warehouse with the
 * most available units, reserve them with the conditional UPDATE, record the ledger row and the route; insert
 * the fulfillment order; read the order, its lines and routes back; COMMIT.
 */
import pg from 'pg';
import type { ReferenceContext, ReferenceResult } from './order-reference.js';

const DEFAULT_CLIENTS = 10;

/** The statements, each parsed once per connection under its name. */
const STATEMENTS = {
  insertOrder: `insert into sales_orders (account_id, storefront_id, channel_key, channel, channel_label, channel_order_id, status, paid, order_ts,
       standard_service_level, accounting, shipping_address, billing_address, fba, channel_will_fulfill, prime, business_order, created_at,
       last_updated_ts)
     values ($1, $2, $3, 'Bench channel', 'Shop One', $4, 'PENDING', 1, $5, 'STANDARD', null, $6, null, 0, 0, 0, 0, $7, $7) returning id`,
  insertLines: `insert into sales_order_lines (account_id, order_id, position, status, requested_sku, product_id, sku, quantity, cancel_quantity,
       shipped_quantity, returned_quantity, unit_price, created_at, updated_at)
     values ($1, $2, 0, 'PENDING', $3, $4, $3, 1, 0, 0, 0, '12.50', $7, $7), ($1, $2, 1, 'PENDING', $5, $6, $5, 2, 0, 0, 0, '3.25', $7, $7)
     returning id, position`,
  pick: `select warehouse_id, available_quantity from inventory where account_id = $1 and product_id = $2 and available_quantity > 0
     order by available_quantity desc, warehouse_id limit 1`,
  reserve: `update inventory set available_quantity = available_quantity - $1, reserved_quantity = reserved_quantity + $1, updated_at = $2
     where account_id = $3 and product_id = $4 and warehouse_id = $5 and available_quantity >= $1`,
  ledger: 'insert into inventory_reservations (account_id, product_id, warehouse_id, order_line_id, quantity, routed_at) values ($1, $2, $3, $4, $5, $6)',
  route: `insert into order_line_routes (account_id, order_id, line_id, warehouse_id, product_id, quantity, reserved_quantity, backorder_quantity,
       shipped_quantity, cancelled_quantity, assembled_quantity, routed_at, updated_at) values ($1, $2, $3, $4, $5, $6, $6, 0, 0, 0, null, $7, $7)`,
  fulfillment: `insert into fulfillment_orders (account_id, order_id, warehouse_id, installation_id, status, assigned_ts, created_at, last_updated_ts)
     values ($1, $2, $3, $4, 'NEW', $5, $5, $5)`,
  readOrder: 'select * from sales_orders where id = $1',
  readLines: 'select * from sales_order_lines where account_id = $1 and order_id = $2 order by position',
  readRoutes: 'select * from order_line_routes where account_id = $1 and order_id = $2',
  skuOf: 'select sku from products where id = $1',
} as const;

type StatementName = keyof typeof STATEMENTS;

/** A named prepared statement run on `client`: pg parses it on the first use per connection, then only binds. */
function runner(client: pg.Client) {
  return <R extends pg.QueryResultRow = pg.QueryResultRow>(name: StatementName, values: unknown[]) =>
    client.query<R>({ name: `ref_order_${name}`, text: STATEMENTS[name], values });
}

/** Opens `count` connections to `databaseUrl` (its search_path option included), closing them all if one fails. */
export async function openClients(databaseUrl: string, count: number): Promise<pg.Client[]> {
  const clients = Array.from({ length: count }, () => new pg.Client({ connectionString: databaseUrl }));
  try {
    await Promise.all(clients.map((c) => c.connect()));
  } catch (error) {
    await Promise.allSettled(clients.map((c) => c.end()));
    throw error;
  }
  return clients;
}

/**
 * Runs `clients` connections of back-to-back orders for `seconds`. `run` keeps the channel order ids of several
 * runs on one database apart. The SKU pairs overlap (i, i+1), so parallel orders queue on shared stock rows now
 * and then, as the route's orders do.
 */
export async function runOrderReferencePg(
  databaseUrl: string,
  context: ReferenceContext,
  seconds: number,
  run = 0,
  clients = DEFAULT_CLIENTS,
): Promise<ReferenceResult> {
  const connections = await openClients(databaseUrl, clients);
  try {
    const { accountId, storefrontId, installationId } = context;
    const address = JSON.stringify({ name: 'Bench Buyer', addressLine1: '1 Main St', city: 'Springfield', postalCode: '12345', countryCode: 'US' });
    // SKUs are looked up once, before the clock starts (the SQLite reference caches them the same way).
    const skus = new Map<number, string>();
    const first = runner(connections[0]!);
    for (const id of new Set(context.productIds.flat())) {
      const row = (await first<{ sku: string }>('skuOf', [id])).rows[0];
      if (!row) throw new Error(`reference: product ${id} not found`);
      skus.set(id, row.sku);
    }

    let next = 0;
    const started = performance.now();
    const deadline = started + seconds * 1000;

    const placeOrders = async (client: pg.Client): Promise<number> => {
      const q = runner(client);
      let placed = 0;
      while (performance.now() < deadline) {
        const n = next++;
        const iso = new Date().toISOString();
        const [firstProduct, secondProduct] = context.productIds[n % context.productIds.length]!;
        await client.query('BEGIN');
        try {
          const orderId = (await q<{ id: number }>('insertOrder', [accountId, storefrontId, `s:${storefrontId}`, `REFPG-${run}-${n}`, iso, address, iso])).rows[0]!.id;
          const lines = (await q<{ id: number; position: number }>('insertLines', [accountId, orderId, skus.get(firstProduct), firstProduct, skus.get(secondProduct), secondProduct, iso])).rows;
          const lineIds = [...lines].sort((a, b) => a.position - b.position).map((l) => l.id);
          let warehouseId = 0;
          for (const [i, productId] of [firstProduct, secondProduct].entries()) {
            const quantity = i + 1;
            const top = (await q<{ warehouse_id: number }>('pick', [accountId, productId])).rows[0];
            if (!top) throw new Error('reference: no stock');
            warehouseId = top.warehouse_id;
            if ((await q('reserve', [quantity, iso, accountId, productId, warehouseId])).rowCount !== 1) throw new Error('reference: reservation failed');
            await q('ledger', [accountId, productId, warehouseId, lineIds[i], quantity, iso]);
            await q('route', [accountId, orderId, lineIds[i], warehouseId, productId, quantity, iso]);
          }
          await q('fulfillment', [accountId, orderId, warehouseId, installationId, iso]);
          await q('readOrder', [orderId]);
          await q('readLines', [accountId, orderId]);
          await q('readRoutes', [accountId, orderId]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
        placed++;
      }
      return placed;
    };

    const perClient = await Promise.all(connections.map(placeOrders));
    const elapsed = (performance.now() - started) / 1000;
    const orders = perClient.reduce((a, b) => a + b, 0);
    return { orders, seconds: elapsed, ordersPerSecond: orders / elapsed };
  } finally {
    await Promise.allSettled(connections.map((c) => c.end()));
  }
}
