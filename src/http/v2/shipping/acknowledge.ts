import type { FastifyBaseLogger } from 'fastify';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { isUniqueViolation, withTx } from '../../../db/tx.js';
import { isDatabaseUnavailable } from '../../../db/unavailable.js';
import type { Principal } from '../../../domain/accounts/principal.js';
import { isAppError } from '../../../domain/errors.js';
import { acknowledgeFulfillmentOrders, type AcknowledgeEntry, type AcknowledgeResult } from '../../../domain/fulfillment/acknowledge.js';
import { principalOf } from '../../plugins/auth.js';
import { v2Responses } from '../../schemas/common.js';
import { AcknowledgeBody, AcknowledgeResponse, MAX_BATCH } from '../../schemas/shipping-v2.js';
import { echoId, pick, runEntry } from './batch.js';
import { SHIPPING_ROUTE_CONFIG, TAGS } from './route-config.js';

export function registerAcknowledge(app: App, deps: Deps) {
  app.post(
    '/v2/shipping/fulfillment_orders/acknowledge',
    {
      config: SHIPPING_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Acknowledge fulfillment orders (NEW → ACCEPTED)',
        description:
          `1 to ${MAX_BATCH} entries {fulfillmentOrderId, externalOrderId}; each succeeds or fails on its own. Sets your ` +
          'externalOrderId (unique within your integration: a duplicate fails the entry). The order stays in need_to_ship. ' +
          'A repeat with the same externalOrderId succeeds with alreadyAcknowledged true. Fails (success false, do not ' +
          'retry): unknown or not-your order, rejected order, nothing owed (shipped or cancelled), another externalOrderId ' +
          'for an already acknowledged order.',
        body: AcknowledgeBody,
        response: v2Responses({ 200: AcknowledgeResponse }, [400, 401, 403, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const now = deps.clock.now();
      const entries: AcknowledgeEntry[] = request.body.acknowledgements.map((raw) => ({
        fulfillmentOrderId: pick(raw.fulfillmentOrderId, raw.fulfillment_order_id),
        externalOrderId: pick(raw.externalOrderId, raw.external_order_id),
      }));
      const outcomes = await acknowledgeEntries(deps, request.log, principal, entries, now);
      return {
        results: entries.map((entry, i) => {
          const outcome = outcomes[i]!;
          return {
            fulfillmentOrderId: echoId(entry.fulfillmentOrderId),
            success: outcome.ok,
            errorMessage: outcome.ok ? '' : outcome.errorMessage,
            alreadyAcknowledged: outcome.ok && outcome.alreadyAcknowledged,
          };
        }),
      };
    },
  );
}

/**
 * The call's entries in one transaction, set-based (domain/fulfillment/acknowledge.ts). When the database refuses
 * the batch for a reason no check foresaw, or a parallel request took one of its externalOrderIds first (the unique
 * index), the entries run one by one, each in its own transaction as before, so only the entry at fault fails and
 * the others keep their outcomes. A lost database fails the call (503) with nothing applied: it can be retried.
 */
async function acknowledgeEntries(
  deps: Deps,
  log: FastifyBaseLogger,
  principal: Principal,
  entries: readonly AcknowledgeEntry[],
  now: Date,
): Promise<AcknowledgeResult[]> {
  // What the batch meant to set, kept past its rollback: an entry whose id another order took meanwhile says so.
  const claims: (string | null)[] = [];
  try {
    return await withTx(deps.db.db, (tx) => acknowledgeFulfillmentOrders(tx, principal, entries, now, { claims }));
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    // A race with a parallel call (or a takeover of the Idempotency-Key) is expected; anything else is worth a look.
    if (isUniqueViolation(error) || isAppError(error)) log.info({ err: error }, 'v2 acknowledge batch refused; applying its entries one by one');
    else log.error({ err: error }, 'v2 acknowledge failed as a batch; applying its entries one by one');
  }
  const results: AcknowledgeResult[] = [];
  for (const [i, entry] of entries.entries()) {
    const contested = [claims[i] ?? null];
    const outcome = await runEntry(deps, log, (tx) => acknowledgeFulfillmentOrders(tx, principal, [entry], now, { contested }));
    results.push(outcome.ok ? outcome.value[0]! : { ok: false, errorMessage: outcome.errorMessage });
  }
  return results;
}
