import type { Deps } from '../../../deps.js';
import { getDelivery } from '../../../domain/callbacks/deliveries.js';
import type { App } from '../../types.js';
import { ADMIN_ROUTE_CONFIG, TAGS } from '../schemas.js';
import { DeliveryDetailView, DeliveryParams, callbackResponses } from './schemas.js';

export function registerGetDelivery(app: App, deps: Deps) {
  app.get(
    '/admin/deliveries/:deliveryId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Read one callback delivery with its attempts',
        description: 'The delivery and every attempt made (time, HTTP status, latency, error, response body up to 16 KiB), oldest first.',
        params: DeliveryParams,
        response: callbackResponses({ 200: DeliveryDetailView }, [401, 404]),
      },
    },
    async (request) => getDelivery(deps.db.db, request.params.deliveryId),
  );
}
