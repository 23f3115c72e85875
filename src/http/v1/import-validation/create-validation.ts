import type { FastifyRequest } from 'fastify';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { invalidField } from '../../../domain/errors.js';
import { createValidation } from '../../../domain/reports/validation/create-validation.js';
import { parseDefinitionId, resolveDefinition, type ImportDefinition } from '../../../domain/reports/validation/definition-id.js';
import { previewOf } from '../../../domain/reports/validation/read-results.js';
import { principalOf } from '../../plugins/auth.js';
import { adoptUpload, deleteUnadoptedUpload, heldUpload, readUpload } from '../../plugins/uploads.js';
import { v1Responses } from '../../schemas/common.js';
import {
  ValidationCreated,
  ValidationCreateForm,
  ValidationCreateParams,
  ValidationCreateQuery,
  ValidationCsvBody,
} from '../../schemas/import-validation.js';
import { UPLOAD_ROUTE_CONFIG } from '../reports/route-config.js';
import { CsvBodyStream, registerCsvBodyParser, storeCsvBody } from './csv-body.js';
import { VALIDATION_TAGS } from './tags.js';

/** The definition preValidation resolved (before the body was read). */
const definitions = new WeakMap<FastifyRequest, ImportDefinition>();

/**
 * POST /v1/import/validation/{importDefinitionId} (document 4.2, resolutions §3), in its own context so
 * that its text/csv parser (the raw stream) serves this route only.
 */
export async function registerCreateValidation(app: App, deps: Deps): Promise<void> {
  await app.register(async (scope: App) => {
    registerCsvBodyParser(scope);
    scope.post(
      '/v1/import/validation/:importDefinitionId',
      {
        config: UPLOAD_ROUTE_CONFIG,
        // The definition is checked before the body is read (a 404 template never costs an upload); then
        // the file streams into the file store.
        preValidation: async (request) => {
          const accountId = principalOf(request).accountId;
          const raw = (request.params as { importDefinitionId?: string }).importDefinitionId ?? '';
          definitions.set(request, await resolveDefinition(deps.db.db, accountId, parseDefinitionId(raw)));
          if (request.isMultipart()) {
            const upload = await readUpload(request, deps, accountId);
            if (!upload.file) throw invalidField('file', 'is required: send the CSV in a multipart part named "file" (or the CSV itself as a text/csv body)');
            request.body = { ...upload.fields, file: upload.file.name };
          } else if (request.body instanceof CsvBodyStream) {
            request.body = (await storeCsvBody(request, request.body, deps, accountId)).name;
          } else {
            throw invalidField('body', 'is required: send the CSV file as a text/csv body, or as multipart/form-data with a part named "file"');
          }
        },
        onResponse: deleteUnadoptedUpload(deps),
        schema: {
          tags: VALIDATION_TAGS,
          summary: 'Validate an import file',
          description:
            'Checks a CSV file against an import definition without importing it (document 2.7, 4.2). The file is the ' +
            'body (`Content-Type: text/csv`) or a part named `file` of a `multipart/form-data` body; UTF-8, up to ' +
            'UPLOAD_BODY_LIMIT_MB (default 200 MiB; larger is 413). Answers at once with the preview — the header as ' +
            'supplied, the field each column is read as ("" for a column the import ignores), the first 10 rows — and ' +
            'queues the validation of every line; poll GET /v1/import/validation/results/{import_validation_id}. Lines ' +
            'are judged by the same code the import runs, against the account\'s data at that time; the query options ' +
            'are the import\'s (createNewProducts, overwriteWithBlank, insertOnly, delimiter). An unknown type, an ' +
            'integrationId or templateId the type does not take, FullProductData without a template, an empty file, ' +
            'one that is not UTF-8 or one that is not CSV within the header and first 10 rows (the message names the line) ' +
            'are 400s; an unknown custom store or template is a 404. A file that is not CSV further down is accepted: ' +
            'its validation reports where (group "file").',
          params: ValidationCreateParams,
          querystring: ValidationCreateQuery,
          consumes: ['text/csv', 'multipart/form-data'],
          body: {
            content: {
              'text/csv': { schema: ValidationCsvBody },
              'multipart/form-data': { schema: ValidationCreateForm },
            },
          },
          response: v1Responses({ 200: ValidationCreated }, [400, 401, 403, 404, 413, 429]),
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const def = definitions.get(request)!;
        const { query } = request;
        const row = await createValidation(deps, principal.accountId, def, heldUpload(request)!, {
          createNewProducts: query.createNewProducts ?? false,
          overwriteWithBlank: query.overwriteWithBlank ?? false,
          insertOnly: query.insertOnly ?? false,
          delimiter: query.delimiter ?? null,
        });
        // The validation owns the file now: it must outlive the request.
        adoptUpload(request);
        return { import_validation_id: row.id, ...previewOf(row) };
      },
    );
  });
}
