import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { createReportFrom } from '../../../domain/reports/create-report-from.js';
import { toReportRecord } from '../../../domain/reports/model.js';
import { publicBaseUrl } from '../../pagination.js';
import { principalOf } from '../../plugins/auth.js';
import { adoptUpload, deleteUnadoptedUpload, heldUpload, readUpload } from '../../plugins/uploads.js';
import { v1Responses } from '../../schemas/common.js';
import { Report, ReportCreateBody, ReportCreateForm } from '../../schemas/reports.js';
import type { ReportCreateBody as ReportCreateFields } from '../../schemas/reports.js';
import { REPORT_TAGS, UPLOAD_ROUTE_CONFIG } from './route-config.js';
import { formFields } from './form-fields.js';

export function registerCreateReport(app: App, deps: Deps) {
  app.post(
    '/v1/report',
    {
      config: UPLOAD_ROUTE_CONFIG,
      preValidation: async (request) => {
        // Every field is optional (document 9): no body at all is an export with the defaults.
        if (!request.isMultipart()) {
          if (request.body === undefined) request.body = {};
          return;
        }
        const upload = await readUpload(request, deps, principalOf(request).accountId);
        request.body = { ...formFields(upload.fields), ...(upload.file ? { file: upload.file.name } : {}) };
      },
      onResponse: deleteUnadoptedUpload(deps),
      schema: {
        tags: REPORT_TAGS,
        summary: 'Create a report (an export, or an import with its file)',
        description:
          'An export: a JSON body (`isExport` true or left out; `exportType` Products (default) or Inventory; `activeOnly`, ' +
          '`includeHeader`, `headersOnly`, `delimiter`, `extension`, `exportForExcel`, `filter`). An import: ' +
          '`multipart/form-data` with the CSV (UTF-8) in a part named `file` and the same fields as form fields ' +
          '(`importType` TemplatelessProduct (default), FullProductData with `templateId`, Inventory, Kits, Orders with ' +
          '`integrationId`; `overwriteWithBlank`, `createNewProducts`, `insertOnly`). Answers the report record ' +
          '(PENDING); poll GET /v1/report/{reportId}. A bad request (contradictory options, a filter formula that does ' +
          'not parse, an unknown template or custom store, a file that is not UTF-8) is a 400/404 here and no report ' +
          'is created. Files up to UPLOAD_BODY_LIMIT_MB (default 200 MiB); larger is 413. With an Idempotency-Key, a ' +
          'replay must carry the same fields and the same file.',
        consumes: ['application/json', 'multipart/form-data'],
        body: {
          content: {
            'application/json': { schema: ReportCreateBody },
            'multipart/form-data': { schema: ReportCreateForm },
          },
        },
        response: v1Responses({ 200: Report }, [400, 401, 403, 404, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const file = heldUpload(request);
      const row = await createReportFrom(deps, principal.accountId, request.body as ReportCreateFields, file);
      // The report owns the file now: it must outlive the request.
      adoptUpload(request);
      return toReportRecord(row, publicBaseUrl(request, deps.config.publicBaseUrl));
    },
  );
}
