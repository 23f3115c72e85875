import { Type } from '@sinclair/typebox';

/** Custom store, document 2.6: {name, default, integrationId}. */
export const CustomStore = Type.Object(
  {
    name: Type.String(),
    default: Type.Boolean({ description: "the account's default store (exactly one per account)" }),
    integrationId: Type.Integer({ description: 'the store\'s id: name it as integrationId on POST /v1/salesOrder' }),
  },
  { examples: [{ name: 'Manual orders', default: true, integrationId: 1 }] },
);

export const CustomStoreList = Type.Object(
  { results: Type.Array(CustomStore) },
  { examples: [{ results: [{ name: 'Manual orders', default: true, integrationId: 1 }, { name: 'Phone orders', default: false, integrationId: 2 }] }] },
);
