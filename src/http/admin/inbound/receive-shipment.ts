import { Type, type TSchema } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { getAccount } from '../../../domain/accounts/accounts.js';
import { sellerPrincipalFor } from '../../../domain/accounts/principal.js';
import { receiveShipment } from '../../../domain/inbound/receive-shipment.js';
import { backorderPort } from '../../../domain/fulfillment/backorder-port.js';
import { shipmentRecord } from '../../../domain/inbound/view.js';
import { V1Error } from '../../schemas/common.js';
import { InboundShipment, ReceiveBody } from '../../schemas/inbound.js';
import { RECEIVE_DESCRIPTION } from '../../v1/inbound/receive-shipment.js';
import { ADMIN_ROUTE_CONFIG, Id, adminResponses } from '../schemas.js';
import { INBOUND_ADMIN_TAGS } from './tags.js';

const Params = Type.Object({ accountId: Id('account id'), id: Id('inbound shipment id') });

const RESPONSES: Record<number, TSchema> = {
  ...adminResponses({ 200: InboundShipment }, [400, 401, 404]),
  403: Type.Ref(V1Error, { description: "the destination warehouse's stock is controlled by an integration" }),
};

export function registerAdminReceiveShipment(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/inbound-shipments/:id/receive',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: INBOUND_ADMIN_TAGS,
        summary: 'Receive units of an inbound shipment (seller)',
        description:
          'The seller records what arrived, exactly as POST /v1/inbound-shipment/{id}/receive with a seller token ' +
          '(the operator acts as the account\'s seller; receipts say `received_by: "operator"`). ' +
          RECEIVE_DESCRIPTION +
          ' So the operator is refused (403) on a warehouse an integration controls, as the seller is. An unknown ' +
          'account or shipment is a 404. Answers the record (v1 shape).',
        params: Params,
        body: ReceiveBody,
        response: RESPONSES,
      },
    },
    async (request) => {
      const { accountId, id } = request.params;
      await getAccount(deps.db.db, accountId);
      const principal = sellerPrincipalFor(accountId);
      const row = await withTx(deps.db.db, (tx) => receiveShipment(tx, principal, id, request.body, deps.clock.now(), backorderPort));
      return shipmentRecord(deps.db.db, principal, row);
    },
  );
}
