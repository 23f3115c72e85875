import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { installApp } from '../../domain/accounts/installations.js';
import { warehouseWorkPort } from '../../domain/fulfillment/warehouse-handover.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, Id, TAGS, adminResponses } from './schemas.js';

export const InstallAppBody = Type.Object(
  {
    appId: Id('the app to install'),
    warehouses: Type.Optional(
      Type.Array(
        Type.Object(
          {
            warehouseId: Id('a warehouse of this account'),
            warehouseUniqueId: Type.String({ minLength: 1, maxLength: 200, description: "the partner's id for it" }),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: 1000,
          description: 'SHIPPING, INVENTORY and THIRD_PARTY_LOGISTICS: at least one; SALES_CHANNEL: none',
        },
      ),
    ),
    storefrontName: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'SALES_CHANNEL only: the channel label; default the app name' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ appId: 4, warehouses: [{ warehouseId: 2, warehouseUniqueId: 'EAST-01' }] }],
  },
);

const Installed = Type.Object(
  {
    installationId: Type.Integer(),
    storefrontId: Type.Optional(Type.Integer({ description: 'SALES_CHANNEL installations' })),
    integrationId: Type.Optional(Type.Integer({ description: 'SHIPPING, INVENTORY and THIRD_PARTY_LOGISTICS installations' })),
    code: Type.String({ description: 'one-time authorization code; expires in 10 minutes' }),
    redirectUrl: Type.String({ description: "where the Install button sends the browser: the app's redirect URI, a `/`, then ?client_id=…&code=…" }),
  },
  {
    examples: [
      {
        installationId: 7,
        integrationId: 7,
        code: 'kq3…43 base64url…',
        redirectUrl: 'https://shipfast.example/oauth/callback/?client_id=9f2c4e1a0b7d3c5e8f10&code=kq3…',
      },
    ],
  },
);

export function registerInstallApp(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/installations',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Install an app on an account (the Install button)',
        description:
          'Creates a storefront (SALES_CHANNEL) or an integration with warehouse mappings and a one-time code the ' +
          'partner exchanges at POST /v1/token. An INVENTORY or THIRD_PARTY_LOGISTICS installation controls the ' +
          "stock of its warehouses; a warehouse already controlled by another active one is a 409. A warehouse " +
          'ships with one SHIPPING or THIRD_PARTY_LOGISTICS installation at a time: mapping one that another active ' +
          'installation already fulfils is a 409 naming that installation (id and app name); unmap the warehouse ' +
          'from it or uninstall it first. A shipping or 3PL installation gets the units already owed in its ' +
          'warehouses as new fulfillment orders. A warehouse of another account is a 404.',
        params: AccountParams,
        body: InstallAppBody,
        response: adminResponses(
          { 201: Installed },
          [400, 401, 404, 409],
          "a warehouse already ships with another active SHIPPING or THIRD_PARTY_LOGISTICS installation (the message names it), " +
            "or its stock is already controlled by another active integration",
        ),
      },
    },
    async (request, reply) => {
      const { accountId } = request.params;
      const installed = await withTx(deps.db.db, (tx) => installApp(tx, accountId, request.body, deps.clock.now(), warehouseWorkPort));
      const { storefrontId, integrationId, ...rest } = installed;
      return reply
        .code(201)
        .header('Cache-Control', 'no-store')
        .send({
          ...rest,
          ...(storefrontId !== null ? { storefrontId } : {}),
          ...(integrationId !== null ? { integrationId } : {}),
        });
    },
  );
}
