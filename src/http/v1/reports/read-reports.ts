import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { cancelReport } from '../../../domain/reports/cancel-report.js';
import { getReport } from '../../../domain/reports/create-report.js';
import { listReports, type ReportKeyset, type ReportListFilter } from '../../../domain/reports/list-reports.js';
import { toReportRecord } from '../../../domain/reports/model.js';
import { decodeV1Token, publicBaseUrl, v1Pagination } from '../../pagination.js';
import { optionalTimestampParam } from '../../params.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { Report, ReportIdParams, ReportList, ReportListQuery } from '../../schemas/reports.js';
import { nextTokenOverridesQuery } from '../next-token.js';
import { REPORT_ROUTE_CONFIG, REPORT_TAGS } from './route-config.js';

const LIST_ROUTE = '/v1/report';

interface ListToken {
  filter: ReportListFilter;
  pageLength: number;
  before: ReportKeyset;
}

function isListToken(value: unknown): value is ListToken {
  const t = value as Partial<ListToken> | null;
  return (
    typeof t?.pageLength === 'number' &&
    typeof t.filter === 'object' &&
    t.filter !== null &&
    (t.filter.createdAfter === null || typeof t.filter.createdAfter === 'string') &&
    typeof t.before?.ts === 'string' &&
    typeof t.before.id === 'number'
  );
}

/** GET /v1/report, GET /v1/report/{reportId}, POST /v1/report/{reportId}/cancel. */
export function registerReportReads(app: App, deps: Deps) {
  app.get(
    LIST_ROUTE,
    {
      config: REPORT_ROUTE_CONFIG,
      preValidation: nextTokenOverridesQuery,
      schema: {
        tags: REPORT_TAGS,
        summary: 'List reports',
        description:
          'The account\'s reports, most recent first (document 4.2). `createdTs`: only reports created after it. Paging: ' +
          '`pageLength` 1..100 (default 25); `pagination.nextToken` is the absolute URL of the next page (GET it unchanged ' +
          'with the same access token; it overrides every other parameter), "" on the last page.',
        querystring: ReportListQuery,
        response: v1Responses({ 200: ReportList }, [400, 401, 403, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { query } = request;
      const state =
        query.nextToken !== undefined && query.nextToken !== ''
          ? decodeV1Token(deps.signer, LIST_ROUTE, principal, query.nextToken, isListToken)
          : {
              filter: { createdAfter: optionalTimestampParam('createdTs', query.createdTs)?.toISOString() ?? null },
              pageLength: query.pageLength ?? 25,
              before: null,
            };
      const page = await listReports(deps.db.db, principal.accountId, state.filter, state.before, state.pageLength);
      const base = publicBaseUrl(request, deps.config.publicBaseUrl);
      const next: ListToken | null = page.next ? { filter: state.filter, pageLength: state.pageLength, before: page.next } : null;
      return {
        results: page.rows.map((row) => toReportRecord(row, base)),
        pagination: v1Pagination(request, deps.signer, deps.config.publicBaseUrl, LIST_ROUTE, principal, next),
      };
    },
  );

  app.get(
    '/v1/report/:reportId',
    {
      config: REPORT_ROUTE_CONFIG,
      schema: {
        tags: REPORT_TAGS,
        summary: 'Read a report',
        description: 'The report record (document 2.9 plus importType/exportType, progress and the error file). Another account\'s report is 404.',
        params: ReportIdParams,
        response: v1Responses({ 200: Report }, [400, 401, 403, 404, 429]),
      },
    },
    async (request) => {
      const row = await getReport(deps.db.db, principalOf(request).accountId, request.params.reportId);
      return toReportRecord(row, publicBaseUrl(request, deps.config.publicBaseUrl));
    },
  );

  app.post(
    '/v1/report/:reportId/cancel',
    {
      config: REPORT_ROUTE_CONFIG,
      schema: {
        tags: REPORT_TAGS,
        summary: 'Cancel a report',
        description:
          'PENDING or PROCESSING → CANCELED (resolutions §6). An import being processed stops before its next chunk; ' +
          '`linesSuccessfullyProcessed` then says exactly how many lines were applied. Canceling a CANCELED report ' +
          'answers it unchanged; a COMPLETE one is 400. No body.',
        params: ReportIdParams,
        response: v1Responses({ 200: Report }, [400, 401, 403, 404, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const row = await withTx(deps.db.db, (tx) => cancelReport(tx, principal.accountId, request.params.reportId, deps.clock.now()));
      return toReportRecord(row, publicBaseUrl(request, deps.config.publicBaseUrl));
    },
  );
}
