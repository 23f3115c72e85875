import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { listVendors, toVendorResultV1 } from '../../../domain/inbound/vendors.js';
import { decodeV1Token, v1Pagination } from '../../pagination.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { VendorList, VendorListQuery } from '../../schemas/inbound-queries.js';
import { nextTokenOverridesQuery } from '../next-token.js';
import { INBOUND_ROUTE_CONFIG, VENDOR_TAGS } from './route-config.js';

const ROUTE = '/v1/vendor';
const DEFAULT_PAGE_LENGTH = 25;

/** What a nextToken carries: the filter, the page length and the last vendor id listed. */
interface ListToken {
  includeArchived: boolean;
  pageLength: number;
  afterId: number;
}

function isListToken(value: unknown): value is ListToken {
  const t = value as Partial<ListToken> | null;
  return typeof t?.includeArchived === 'boolean' && typeof t.pageLength === 'number' && Number.isSafeInteger(t.afterId);
}

export function registerListVendors(app: App, deps: Deps) {
  app.get(
    ROUTE,
    {
      config: INBOUND_ROUTE_CONFIG,
      preValidation: nextTokenOverridesQuery,
      schema: {
        tags: VENDOR_TAGS,
        summary: 'List vendors',
        description:
          'The account\'s vendors (resolutions §8) in the shape of GET /v1/vendor/{id}, oldest first (by id). Archived ' +
          'vendors are left out unless `includeArchived=true`.\n\n' +
          'Paging: `pageLength` 1..100 (default 25); `pagination.nextToken` is the absolute URL of the next page (GET it ' +
          'unchanged with the same access token; it overrides every other parameter, even an invalid one), "" on the last ' +
          'page; a changed or another access token\'s nextToken is a 400 invalid nextToken.',
        querystring: VendorListQuery,
        response: v1Responses({ 200: VendorList }, [400, 401, 403, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { query } = request;
      const state: { includeArchived: boolean; pageLength: number; afterId: number | null } =
        query.nextToken !== undefined && query.nextToken !== ''
          ? decodeV1Token(deps.signer, ROUTE, principal, query.nextToken, isListToken)
          : { includeArchived: query.includeArchived ?? false, pageLength: query.pageLength ?? DEFAULT_PAGE_LENGTH, afterId: null };
      const page = await listVendors(deps.db.db, principal.accountId, {
        includeArchived: state.includeArchived,
        afterId: state.afterId,
        limit: state.pageLength,
      });
      const next: ListToken | null =
        page.next === null ? null : { includeArchived: state.includeArchived, pageLength: state.pageLength, afterId: page.next };
      return {
        results: page.rows.map(toVendorResultV1),
        pagination: v1Pagination(request, deps.signer, deps.config.publicBaseUrl, ROUTE, principal, next),
      };
    },
  );
}
