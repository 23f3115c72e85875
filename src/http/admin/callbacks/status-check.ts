import type { Deps } from '../../../deps.js';
import { checkStorefrontStatus } from '../../../domain/callbacks/triggers.js';
import { deliveryPortsOf } from '../../../domain/sandbox-partner/delivery-ports.js';
import type { App } from '../../types.js';
import { ADMIN_ROUTE_CONFIG, TAGS } from '../schemas.js';
import { StatusCheckView, StorefrontParams, callbackResponses } from './schemas.js';

export function registerStatusCheck(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/storefronts/:storefrontId/status-check',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Check a storefront’s connection with its partner (storefront status callback)',
        description:
          'Calls GET {callbackBaseUrl}/v2/storefront/status/{storefrontId} now, signed (5.5), and waits for the ' +
          'answer within the callback timeouts (connect 5 s, total 15 s). On HTTP 200 the checks[] (2.20) are ' +
          'stored with their time and returned. Any failure (non-200, timeout, refused target, a 200 without ' +
          'checks) answers 502 naming it; it is not retried. Either way the call is logged as a delivery with ' +
          "its attempt. 400 when the app has no callback base URL; 409 when the storefront is disconnected.",
        params: StorefrontParams,
        response: callbackResponses({ 200: StatusCheckView }, [400, 401, 404, 409], 'the storefront is disconnected', 'the partner failed the status call; the message says how'),
      },
    },
    async (request) => checkStorefrontStatus(deliveryPortsOf(deps), request.params.accountId, request.params.storefrontId),
  );
}
