import { Type, type TSchema } from '@sinclair/typebox';
import { APP_KINDS, SCOPES, type AppKind, type Scope } from '../../domain/accounts/principal.js';
import { Nullable, Timestamp, V1Error, v1Responses } from '../schemas/common.js';

/** Shapes of the operator API (DESIGN.md "Operator API"); errors are the v1 body. */

export const TAGS = ['admin'];
export const ADMIN_ROUTE_CONFIG = { admin: true } as const;

// Ids are 32-bit integer columns on PostgreSQL: a larger value could never exist and would fail the query.
const MAX_ID = 2147483647;
export const Id = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, description, examples: [1] });

export const AccountParams = Type.Object({ accountId: Id('account id') });
export const AppParams = Type.Object({ appId: Id('app id') });
export const InstallationParams = Type.Object({
  accountId: Id('account id'),
  installationId: Id('installation id'),
});
export const TokenParams = Type.Object({ accountId: Id('account id'), tokenId: Id('token id') });

// `enum` rather than a union of literals so a bad value is answered with the list of allowed ones.
export const AppKindSchema = Type.Unsafe<AppKind>({
  type: 'string',
  enum: [...APP_KINDS],
  description: 'kind of partner application',
  examples: ['SHIPPING'],
});
export const ScopeSchema = Type.Unsafe<Scope>({ type: 'string', enum: [...SCOPES], description: 'scope label (document 5.4)' });
export const ScopeList = Type.Array(ScopeSchema, { minItems: 1, maxItems: SCOPES.length * 2, examples: [['inventory:self']] });

export const NameInput = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

type AdminErrorStatus = 400 | 401 | 404 | 409;

const ADMIN_ERROR_TEXT: Record<AdminErrorStatus, string> = {
  400: 'invalid input; errorMessages lists each problem',
  401: 'missing or wrong operator token (ADMIN_TOKEN); without one, only loopback callers in development',
  404: 'no such account, app, installation, warehouse or token',
  409: 'conflicts with the current state',
};

/**
 * The v1 response map with the operator API's own wording: `conflicts` says what a 409 means on this route.
 */
export function adminResponses(
  success: Record<number, TSchema>,
  errors: AdminErrorStatus[],
  conflicts?: string,
): Record<number, TSchema> {
  const out = v1Responses(success, errors);
  for (const status of errors) {
    const text = status === 409 && conflicts ? conflicts : ADMIN_ERROR_TEXT[status];
    out[status] = Type.Ref(V1Error, { description: text });
  }
  return out;
}

export const Account = Type.Object(
  { accountId: Type.Integer(), name: Type.String() },
  { examples: [{ accountId: 1, name: 'Sandbox seller' }] },
);

/** An account with its settings (resolutions §10): what GET and PATCH /admin/accounts/{accountId} answer. */
export const AccountWithSettings = Type.Object(
  {
    accountId: Type.Integer(),
    name: Type.String(),
    currencyCode: Type.String({ description: 'ISO 4217 code the console shows money in (default USD)' }),
    timeZone: Type.String({ description: 'IANA time zone name the console shows dates in (default UTC)' }),
    personalDataRetentionDays: Nullable(
      Type.Integer({
        description:
          "days buyers' personal data is kept after an order closes (default 30); null keeps it. Stored: the redaction sweep acting on it is not part of this version",
      }),
    ),
  },
  { examples: [{ accountId: 1, name: 'Sandbox seller', currencyCode: 'USD', timeZone: 'UTC', personalDataRetentionDays: 30 }] },
);

export const Warehouse = Type.Object(
  {
    warehouseId: Type.Integer(),
    name: Type.String(),
    channelFulfilled: Type.Boolean({ description: "the channel's own network (e.g. a marketplace's warehouses)" }),
  },
  { examples: [{ warehouseId: 3, name: 'East', channelFulfilled: false }] },
);

export const WarehouseListEntry = Type.Object({
  warehouseId: Type.Integer(),
  name: Type.String(),
  channelFulfilled: Type.Boolean(),
  controlledByInstallationId: Nullable(
    Type.Integer({ description: 'the INVENTORY or THIRD_PARTY_LOGISTICS installation that controls its stock' }),
  ),
});

export const Mapping = Type.Object({
  warehouseId: Type.Integer(),
  warehouseUniqueId: Type.String({ description: "the warehouse's id in the partner's namespace" }),
});

export const MappingView = Type.Object({
  warehouseId: Type.Integer(),
  warehouseUniqueId: Type.String(),
  controlsStock: Type.Boolean({ description: 'true for INVENTORY and THIRD_PARTY_LOGISTICS installations' }),
});

export const Installation = Type.Object({
  installationId: Type.Integer(),
  appId: Type.Integer(),
  kind: AppKindSchema,
  status: Type.Unsafe<'ACTIVE' | 'REVOKED'>({ type: 'string', enum: ['ACTIVE', 'REVOKED'] }),
  storefrontName: Nullable(Type.String()),
  storefrontId: Nullable(Type.Integer({ description: 'set for SALES_CHANNEL installations' })),
  integrationId: Nullable(Type.Integer({ description: 'set for SHIPPING, INVENTORY and THIRD_PARTY_LOGISTICS' })),
  mappings: Type.Array(MappingView),
  createdAt: Timestamp,
  revokedAt: Nullable(Timestamp),
});

export const Secrets = {
  clientId: Type.String({ description: '20 hex characters' }),
  clientSecret: Type.String({ description: 'shown once; only its hash is kept' }),
  callbackSigningSecret: Type.String({ description: 'HMAC key of callback signatures; shown once' }),
};

export const RevokedToken = Type.Object(
  {
    tokenId: Type.Integer(),
    accountId: Type.Integer(),
    status: Type.Literal('REVOKED'),
  },
  { examples: [{ tokenId: 12, accountId: 1, status: 'REVOKED' }] },
);
