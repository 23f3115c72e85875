import { Type } from '@sinclair/typebox';
import { FreeText, NameText, Nullable, Timestamp } from '../../schemas/common.js';
import { Id } from '../schemas.js';

/** Shapes of the operator's vendor routes (DESIGN.md operator API; document 2.8). */

export const TAGS = ['admin: vendors'];

export const VendorParams = Type.Object({ accountId: Id('account id'), vendorId: Id('vendor id') });

// Lead times and payment windows are whole days; ten years bounds a typo without limiting a real term.
const Days = (description: string) => Type.Integer({ minimum: 0, maximum: 3650, description });

const optionalFields = {
  address: Type.Optional(Nullable(NameText({ description: 'postal address, free form' }))),
  leadTimeDays: Type.Optional(Nullable(Days('days from order to arrival, 0..3650'))),
  paymentWindowDays: Type.Optional(Nullable(Days('days the seller has to pay, 0..3650'))),
  notes: Type.Optional(Nullable(FreeText({ description: 'free text, up to 64 KiB' }))),
  contact: Type.Optional(Nullable(NameText({ description: 'who to call or write to, free form' }))),
};

const VendorName = NameText({ minLength: 1, description: 'unique in the account, compared case-insensitively; trimmed' });

export const CreateVendorBody = Type.Object(
  { name: VendorName, ...optionalFields },
  {
    additionalProperties: false,
    examples: [{ name: 'Acme Ceramics', address: '1 Kiln Road, Stoke', leadTimeDays: 14, paymentWindowDays: 30, contact: 'orders@acme.example' }],
  },
);

export const PatchVendorBody = Type.Object(
  {
    name: Type.Optional(VendorName),
    ...optionalFields,
    archived: Type.Optional(Type.Boolean({ description: 'true archives the vendor, false restores it' })),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ leadTimeDays: 21 }, { archived: true }] },
);

export const VendorView = Type.Object(
  {
    vendorId: Type.Integer(),
    name: Type.String(),
    address: Nullable(Type.String()),
    leadTimeDays: Nullable(Type.Integer()),
    paymentWindowDays: Nullable(Type.Integer()),
    notes: Nullable(Type.String()),
    contact: Nullable(Type.String()),
    archived: Type.Boolean({ description: 'archived vendors keep their shipments but take no new ones and are left out of lists' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    examples: [
      {
        vendorId: 3,
        name: 'Acme Ceramics',
        address: '1 Kiln Road, Stoke',
        leadTimeDays: 14,
        paymentWindowDays: 30,
        notes: null,
        contact: 'orders@acme.example',
        archived: false,
        createdAt: '2026-11-21T22:13:08.123Z',
        updatedAt: '2026-11-21T22:13:08.123Z',
      },
    ],
  },
);

export const VendorListQuery = Type.Object(
  {
    includeArchived: Type.Optional(Type.Boolean({ default: false, description: 'also list archived vendors' })),
    after: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'nextAfter of the previous page: vendors with a larger id' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100, description: '1..500, default 100' })),
  },
  { additionalProperties: false },
);

export const VendorAdminList = Type.Object({
  results: Type.Array(VendorView),
  nextAfter: Nullable(Type.Integer({ description: 'pass as `after` for the next page; null on the last page' })),
});
