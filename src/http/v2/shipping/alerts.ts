import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { raiseAlert, resolveAlert } from '../../../domain/fulfillment/alerts.js';
import type { AlertType } from '../../../domain/fulfillment/model.js';
import { principalOf } from '../../plugins/auth.js';
import { v2Responses } from '../../schemas/common.js';
import { AlertsBody, AlertsResponse, MAX_BATCH, ResolveAlertsBody, ResolveAlertsResponse } from '../../schemas/shipping-v2.js';
import { echoId, pick, runEntry } from './batch.js';
import { SHIPPING_ROUTE_CONFIG, TAGS } from './route-config.js';

// Results carry the enum name (proto3 JSON output) even when the entry sent the number; absent = UNSPECIFIED.
const typeOf = (type: AlertType | undefined): AlertType => type ?? 'ALERT_TYPE_UNSPECIFIED';

export function registerRaiseAlerts(app: App, deps: Deps) {
  app.post(
    '/v2/shipping/fulfillment_orders/alerts',
    {
      config: SHIPPING_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Open alerts on fulfillment orders',
        description:
          `1 to ${MAX_BATCH} entries {fulfillmentOrderId, type, message, lineItemId}; one result per entry. At most one ` +
          'open alert per type per order per integration: a second one succeeds with alreadyOpen true and changes ' +
          'nothing. Types ALERT_TYPE_FULFILL, _LATE_SHIPMENT, _LOST, _OTHER, by name or number (1–4); ' +
          'ALERT_TYPE_UNSPECIFIED (0, or absent) fails the entry; an unknown name or number fails the whole request ' +
          '(400, nothing raised). Results echo type as its name. lineItemId, when given, must be a line of the order routed to your warehouse.',
        body: AlertsBody,
        response: v2Responses({ 200: AlertsResponse }, [400, 401, 403, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const now = deps.clock.now();
      const results = [];
      for (const raw of request.body.alerts) {
        const fulfillmentOrderId = pick(raw.fulfillmentOrderId, raw.fulfillment_order_id);
        const lineItemId = pick(raw.lineItemId, raw.line_item_id);
        const outcome = await runEntry(deps, request.log, (tx) =>
          raiseAlert(
            tx,
            principal,
            { fulfillmentOrderId, type: typeOf(raw.type), message: raw.message ?? null, lineItemId: lineItemId === null ? null : String(lineItemId) },
            now,
          ),
        );
        results.push({
          fulfillmentOrderId: echoId(fulfillmentOrderId),
          type: typeOf(raw.type),
          success: outcome.ok,
          errorMessage: outcome.ok ? '' : outcome.errorMessage,
          alreadyOpen: outcome.ok && outcome.value.alreadyOpen,
        });
      }
      return { results };
    },
  );
}

export function registerResolveAlerts(app: App, deps: Deps) {
  app.post(
    '/v2/shipping/fulfillment_orders/alerts/resolve',
    {
      config: SHIPPING_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Resolve your open alerts',
        description:
          `1 to ${MAX_BATCH} entries {fulfillmentOrderId, type, resolution}; one result per entry. Closes only the open ` +
          'alert of that type that YOUR integration raised (one raised by the service or another integration survives). ' +
          'success true when no alert of yours of that type is open any more; alreadyResolved true when nothing was open ' +
          '(treat as success). type by name or number, echoed as its name; ALERT_TYPE_UNSPECIFIED (or absent) and ' +
          'unknown or not-your orders fail the entry; an unknown type name or number fails the whole request (400).',
        body: ResolveAlertsBody,
        response: v2Responses({ 200: ResolveAlertsResponse }, [400, 401, 403, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const now = deps.clock.now();
      const results = [];
      for (const raw of request.body.resolutions) {
        const fulfillmentOrderId = pick(raw.fulfillmentOrderId, raw.fulfillment_order_id);
        const outcome = await runEntry(deps, request.log, (tx) =>
          resolveAlert(tx, principal, { fulfillmentOrderId, type: typeOf(raw.type), resolution: raw.resolution ?? null }, now),
        );
        results.push({
          fulfillmentOrderId: echoId(fulfillmentOrderId),
          type: typeOf(raw.type),
          success: outcome.ok,
          errorMessage: outcome.ok ? '' : outcome.errorMessage,
          alreadyResolved: outcome.ok && outcome.value.alreadyResolved,
        });
      }
      return { results };
    },
  );
}
