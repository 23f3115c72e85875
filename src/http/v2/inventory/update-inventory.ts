import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { isDatabaseUnavailable } from '../../../db/unavailable.js';
import { invalidField } from '../../../domain/errors.js';
import {
  failedEntry,
  updateInventoryEntries,
  type InventoryUpdateResult,
  type InventoryUpdateEntry,
} from '../../../domain/inventory/v2-update.js';
import { backorderPort } from '../../../domain/fulfillment/backorder-port.js';
import { principalOf } from '../../plugins/auth.js';
import { timestampParam } from '../../params.js';
import { v2Responses } from '../../schemas/common.js';
import { MAX_UPDATES, UpdateInventoryBody, UpdateInventoryResponse } from '../../schemas/inventory-v2.js';
import { INVENTORY_ROUTE_CONFIG, TAGS } from './route-config.js';

type RawEntry = UpdateInventoryBody['updates'][number];

/** proto3 JSON input: the camelCase name wins over its snake_case alias; null counts as absent. */
export function normalizeEntry(raw: RawEntry): InventoryUpdateEntry {
  return {
    sku: raw.sku ?? null,
    warehouseUniqueId: raw.warehouseUniqueId ?? raw.warehouse_unique_id ?? null,
    quantity: raw.quantity ?? null,
    binLocation: raw.binLocation ?? raw.bin_location ?? null,
  };
}

function observedAtOf(body: UpdateInventoryBody): Date {
  const value = body.observedTs ?? body.observed_ts;
  if (value === undefined || value === '') {
    throw invalidField('observedTs', 'is required: when the counts were taken, RFC 3339 with a time zone');
  }
  return timestampParam('observedTs', value);
}

export function registerUpdateInventory(app: App, deps: Deps) {
  app.post(
    '/v2/inventory',
    {
      config: INVENTORY_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Set on-hand quantities in the integration\'s warehouses',
        description:
          `Sets the absolute on-hand count of existing SKUs in warehouses whose stock the integration controls; ` +
          `available = on-hand − units reserved by open orders. 1 to ${MAX_UPDATES} entries, applied in one transaction and each ` +
          'answered in `results` in request order (entries naming the same SKU and warehouse apply in that order; ' +
          'if the database is lost, the whole call fails with nothing applied and can be retried; success false + failureReason: ' +
          'UNKNOWN_SKU — v2 never creates products; MISSING_SKU; WAREHOUSE_NOT_YOURS — not one of your mapped ' +
          'warehouses; INVALID — quantity not a whole number ≥ 0 or missing; INTERNAL — the database refused this entry ' +
          'for a reason no check foresaw, the others are applied: retry it). ' +
          '`observedTs` is required: an entry observed before the count already held is discarded with stale true ' +
          '(failureReason UNSPECIFIED) and changes nothing, so out-of-order deliveries are harmless. Field names may ' +
          'also be snake_case (observed_ts, warehouse_unique_id, bin_location); quantity is an int32 (0 to 2147483647), ' +
          'as a JSON number or string. Units an entry leaves available fill the orders backordered in that warehouse ' +
          '(oldest order first) in the same transaction.',
        body: UpdateInventoryBody,
        response: v2Responses({ 200: UpdateInventoryResponse }, [400, 401, 403, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const observedAt = observedAtOf(request.body);
      const entries = request.body.updates.map(normalizeEntry);
      const now = deps.clock.now();
      // One transaction for the call, its entries applied set-based with a result each (v2-update.ts).
      try {
        return { results: await withTx(deps.db.db, (tx) => updateInventoryEntries(tx, principal, entries, observedAt, now, backorderPort)) };
      } catch (error) {
        // A lost database fails the call (503) with nothing applied, so the whole request can be retried.
        if (isDatabaseUnavailable(error)) throw error;
        request.log.error({ err: error }, 'v2 inventory update failed as a batch; applying its entries one by one');
      }
      // The database refused something no check foresaw: each entry runs on its own, so the one at fault answers
      // INTERNAL and the others keep their outcomes.
      const results: InventoryUpdateResult[] = [];
      for (const entry of entries) {
        try {
          results.push(...(await withTx(deps.db.db, (tx) => updateInventoryEntries(tx, principal, [entry], observedAt, now, backorderPort))));
        } catch (error) {
          if (isDatabaseUnavailable(error)) throw error;
          // One broken entry must not lose the outcome of the others; the detail stays in the log.
          request.log.error({ err: error, sku: entry.sku }, 'v2 inventory update entry failed');
          results.push(failedEntry(entry, 'UPDATE_FAILURE_REASON_INTERNAL', 'internal error applying this entry; retry it, quoting X-Request-Id if it persists'));
        }
      }
      return { results };
    },
  );
}
