import { Type, type Static } from '@sinclair/typebox';
import { INBOUND_STATUSES } from '../../domain/inbound/model.js';
import { IdText, V1Pagination } from './common.js';
import { VendorResult } from './inbound.js';

/** Query and response shapes of the v1 inbound list and vendor routes (resolutions §1, §3, §8). */

const MAX_ID = 2147483647;
const PageLength = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: '1..100, default 25' }));
const NextToken = Type.Optional(
  Type.String({ description: 'the nextToken URL of the previous page (GET it as is); overrides every other parameter, even an invalid one' }),
);

export const ShipmentListQuery = Type.Object({
  status: Type.Optional(
    Type.Array(Type.String(), { description: `statuses, comma-separated and/or repeated: ${INBOUND_STATUSES.join(', ')}` }),
  ),
  warehouseId: Type.Optional(Type.Array(Type.String(), { description: 'destination warehouse ids, comma-separated and/or repeated' })),
  warehouses: Type.Optional(Type.Array(Type.String(), { description: 'the same as warehouseId (the name GET /v1/inventory uses)' })),
  vendorId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'only shipments from this vendor' })),
  updatedSince: Type.Optional(Type.String({ description: 'RFC 3339 with a zone: shipments updated at or after it' })),
  lastUpdatedTs: Type.Optional(Type.String({ description: 'the same as updatedSince (the name the other v1 lists use)' })),
  purchaseOrderNumber: Type.Optional(IdText({ description: 'only shipments with exactly this purchase order number' })),
  pageLength: PageLength,
  nextToken: NextToken,
});
export type ShipmentListQuery = Static<typeof ShipmentListQuery>;

export const VendorIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'vendor id' }) });

export const VendorResultBody = Type.Object(
  { results: VendorResult },
  {
    examples: [
      {
        results: {
          vendorId: 3,
          name: 'Acme Ceramics',
          address: '1 Kiln Road, Stoke',
          leadTimeDays: 14,
          notes: null,
          paymentWindowDays: 30,
        },
      },
    ],
  },
);

export const VendorListQuery = Type.Object({
  includeArchived: Type.Optional(Type.Boolean({ default: false, description: 'also list archived vendors' })),
  pageLength: PageLength,
  nextToken: NextToken,
});
export type VendorListQuery = Static<typeof VendorListQuery>;

export const VendorList = Type.Object({ results: Type.Array(VendorResult), pagination: V1Pagination });
