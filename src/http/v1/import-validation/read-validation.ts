import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { readValidation } from '../../../domain/reports/validation/read-results.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { ValidationData, ValidationResultsParams } from '../../schemas/import-validation.js';
import { REPORT_ROUTE_CONFIG } from '../reports/route-config.js';
import { VALIDATION_TAGS } from './tags.js';

/** GET /v1/import/validation/results/{validationID} (document 2.7, 4.2; resolutions §3). */
export function registerReadValidation(app: App, deps: Deps): void {
  app.get(
    '/v1/import/validation/results/:validationID',
    {
      config: REPORT_ROUTE_CONFIG,
      schema: {
        tags: VALIDATION_TAGS,
        summary: 'Read an import validation',
        description:
          'The validation data (document 2.7), readable at any time: while PENDING or PROCESSING it holds the results ' +
          'found so far. Results are grouped by what to fix: a group per column header, plus "file" (the file cannot be ' +
          'read as CSV from some line on), "header" (the header: missing or repeated columns, ignored columns as ' +
          'WARNING) and "line" (whole-line problems such as a wrong number of fields). `row` is the file line (the ' +
          'header is line 1). One response carries at most 1,000 results per group and 10,000 in all, the first in ' +
          'file order; `total_results` and `omitted_results` count the rest. Another account\'s validation is a 404.',
        params: ValidationResultsParams,
        response: v1Responses({ 200: ValidationData }, [400, 401, 403, 404, 429]),
      },
    },
    async (request) => readValidation(deps.db.db, principalOf(request).accountId, request.params.validationID),
  );
}
