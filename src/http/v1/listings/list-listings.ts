import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import type { Principal } from '../../../domain/accounts/principal.js';
import { listListingsV1, type V1ListingFilter, type V1ListingPosition } from '../../../domain/listings/v1-list.js';
import { decodeV1Token, v1Pagination } from '../../pagination.js';
import { optionalTimestampParam, skusParam } from '../../params.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { ListingListQueryV1, ListingListV1 } from '../../schemas/listings-v1.js';
import { nextTokenOverridesQuery } from '../next-token.js';
import { V1_LISTING_ROUTE_CONFIG } from './route-config.js';

const ROUTE = '/v1/listing';

/**
 * What a nextToken carries: the filters, the page length and the keyset position (a v1 client GETs the
 * next URL as is, so the filters travel with it). The caller it was issued to is in the signature.
 */
interface ListToken {
  filter: V1ListingFilter;
  pageLength: number;
  after: V1ListingPosition;
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

function isListToken(value: unknown): value is ListToken {
  const t = value as Partial<ListToken> | null;
  const f = t?.filter;
  const a = t?.after;
  return (
    typeof t?.pageLength === 'number' &&
    Number.isInteger(t.pageLength) &&
    t.pageLength >= 1 &&
    t.pageLength <= 100 &&
    typeof f === 'object' &&
    f !== null &&
    (f.updatedAfter === null || typeof f.updatedAfter === 'string') &&
    (f.skus === null || isStringArray(f.skus)) &&
    typeof a === 'object' &&
    a !== null &&
    typeof a.ts === 'string' &&
    typeof a.id === 'number'
  );
}

function filterFromQuery(query: ListingListQueryV1): V1ListingFilter {
  const lastUpdate = query.lastUpdateTs !== undefined && query.lastUpdateTs !== '' ? query.lastUpdateTs : query.lastUpdatedTs;
  const field = query.lastUpdateTs !== undefined && query.lastUpdateTs !== '' ? 'lastUpdateTs' : 'lastUpdatedTs';
  const skus = skusParam(query.skus);
  return {
    updatedAfter: optionalTimestampParam(field, lastUpdate)?.toISOString() ?? null,
    skus: skus.length > 0 ? skus : null,
  };
}

/** A nextToken overrides every other parameter; one issued to another access token is as invalid as a forged one. */
function fromToken(deps: Deps, principal: Principal, token: string): ListToken {
  return decodeV1Token(deps.signer, ROUTE, principal, token, isListToken);
}

export function registerListListingsV1(app: App, deps: Deps) {
  app.get(
    ROUTE,
    {
      config: V1_LISTING_ROUTE_CONFIG,
      preValidation: nextTokenOverridesQuery,
      schema: {
        tags: ['v1 listings'],
        summary: 'List listings',
        description:
          'Listings in the document 2.1 shape, oldest `updated_at` first (then by id; a listing updated while ' +
          'you page may appear again, never be skipped). `lastUpdateTs` (alias `lastUpdatedTs`): only listings ' +
          'updated strictly after it. `skus`: only listings whose group SKU or one of whose variant SKUs is ' +
          'listed (exact). Scope legacy or listing:self; a sales-channel token sees its own storefront\'s ' +
          'listings only, other tokens the whole account.\n\n' +
          'Paging: `pageLength` 1..100 (default 25). `pagination.nextToken` is the absolute URL of the next page ' +
          '(GET it unchanged with the same access token; its token overrides every other parameter, even an invalid ' +
          'one), "" on the last page; another access token gets 400 invalid nextToken.',
        querystring: ListingListQueryV1,
        response: v1Responses({ 200: ListingListV1 }, [400, 401, 403, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { query } = request;
      const state =
        query.nextToken !== undefined && query.nextToken !== ''
          ? fromToken(deps, principal, query.nextToken)
          : { filter: filterFromQuery(query), pageLength: query.pageLength ?? 25, after: null };
      const page = await listListingsV1(deps.db.db, principal, state.filter, state.after, state.pageLength);
      const next: ListToken | null = page.next
        ? { filter: state.filter, pageLength: state.pageLength, after: page.next }
        : null;
      return { results: page.results, pagination: v1Pagination(request, deps.signer, deps.config.publicBaseUrl, ROUTE, principal, next) };
    },
  );
}
