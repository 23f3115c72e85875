import { Type } from '@sinclair/typebox';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { MAX_VALID_VALUE_LENGTH, parseStorefrontValidValues, setStorefrontValidValues } from '../../../../domain/listings/storefront-valid-values.js';
import { MAX_LIST_ITEMS } from '../../../../domain/listings/taxonomy-spec.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

// Types are described here and checked by the domain, which names the field the client used.
const Text = (description: string) => Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], description }));
const List = (description: string) => Type.Optional(Type.Unsafe<string[] | null>({ type: ['array', 'null'], items: { type: 'string' }, description }));
const Ignored = (description: string) => Type.Optional(Type.Unknown({ description }));

const Body = Type.Object(
  {
    specId: Text('required: the attributeSpecId of a TYPE_SELECT or TYPE_MULTI_SELECT spec of one of your product types'),
    spec_id: Text('snake_case alias of specId'),
    validValues: List(`this storefront's valid values (at most ${MAX_LIST_ITEMS}, each at most ${MAX_VALID_VALUE_LENGTH} characters); [] removes them`),
    valid_values: List('snake_case alias of validValues'),
    accountId: Ignored('ignored: the token names the account'),
    account_id: Ignored('ignored'),
    storefrontId: Ignored('ignored: the token names the storefront'),
    storefront_id: Ignored('ignored'),
  },
  { additionalProperties: true, examples: [{ specId: 'business_policy', validValues: ['Free returns 30 days', 'No returns'] }] },
);

export function registerSetValidValues(app: App, deps: Deps) {
  app.post(
    '/v2/storefront/listing/valid_values',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Set the storefront\'s valid values of a select attribute',
        description:
          'For attributes whose allowed values are particular to this storefront (a channel\'s approved item types, ' +
          'a seller\'s business policies): replaces the storefront\'s valid values of the attribute spec `specId`. ' +
          'While set they replace the spec\'s own `validValues` in what the seller is offered and may choose (a ' +
          'seller edit outside them is refused); the taxonomy reads keep answering the spec as you stored it. They ' +
          'apply to every TYPE_SELECT / TYPE_MULTI_SELECT spec with that id on any of your product types. An empty ' +
          'list removes them (the spec\'s own apply again). Account and storefront come from the token: ids in the ' +
          'body are ignored. No spec with that id on your product types: 404. Only specs of other types: 400 ' +
          'FAILED_PRECONDITION. Response {}.',
        body: Body,
        response: v2Responses({ 200: Type.Object({}) }, [400, 401, 403, 404, 413, 429]),
      },
    },
    async (request) => {
      const input = parseStorefrontValidValues(request.body);
      await withTx(deps.db.db, (tx) => setStorefrontValidValues(tx, principalOf(request), input, deps.clock.now()));
      return {};
    },
  );
}
