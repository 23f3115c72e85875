import { Type } from '@sinclair/typebox';
import { IMPORT_TYPES } from '../../domain/reports/model.js';
import { MAX_RESULTS_PER_GROUP, MAX_RESULTS_PER_RESPONSE } from '../../domain/reports/validation/read-results.js';
import { PREVIEW_CELL_CHARS, SEVERITIES, VALIDATION_STATUSES } from '../../domain/reports/validation/model.js';

export const ValidationCreateParams = Type.Object({
  importDefinitionId: Type.String({
    minLength: 1,
    maxLength: 200,
    description:
      `<importType>[;<integrationId>[;<templateId>]], ";" or ":" between parts. Types: ${IMPORT_TYPES.join(', ')}. ` +
      'Examples: Inventory, Orders;12 (custom store 12; Orders alone uses the default store), FullProductData;;7 or FullProductData::7 (template 7).',
    examples: ['Inventory', 'Orders;12', 'FullProductData;;7'],
  }),
});

const Bool = (description: string) => Type.Optional(Type.Boolean({ description }));

/** The import options that change how lines are judged, as POST /v1/report takes them (document 2.9). */
export const ValidationCreateQuery = Type.Object({
  createNewProducts: Bool('validate as an import that creates SKUs that do not exist (default false)'),
  overwriteWithBlank: Bool('validate as an import where blank cells clear values (default false)'),
  insertOnly: Bool('validate as an import that only fills blank data (default false)'),
  delimiter: Type.Optional(Type.String({ maxLength: 8, description: 'field delimiter of the file (default ","; \\t or "tab" for a tab)' })),
});

export const ValidationCsvBody = Type.String({
  format: 'binary',
  description: 'the CSV file itself (UTF-8), streamed as the request body',
  examples: ['sku,warehouse,quantity\nMUG-RED,Main,25\n'],
});

export const ValidationCreateForm = Type.Object(
  { file: Type.String({ format: 'binary', description: 'the CSV file to validate (UTF-8)' }) },
  { additionalProperties: false, examples: [{ file: 'sku,warehouse,quantity\nMUG-RED,Main,25\n' }] },
);

const Preview = {
  supplied_headers: Type.Array(Type.String(), { description: 'the header of the file, as sent' }),
  actual_headers: Type.Array(Type.String(), {
    description:
      'per supplied header, in the same order: the field the import reads that column as; "" for a column the import ignores. ' +
      '[] when the header cannot be read (then a result in group "header" or "file" says why).',
  }),
  first_10_rows: Type.Array(Type.Array(Type.String()), {
    description: `the first (up to) 10 data rows, cells as read in file order (a cell longer than ${PREVIEW_CELL_CHARS} characters is cut, ending in …)`,
  }),
};

export const ValidationCreated = Type.Object({
  import_validation_id: Type.Integer({ description: 'read the results at GET /v1/import/validation/results/{import_validation_id}' }),
  ...Preview,
});

export const ValidationResultsParams = Type.Object({ validationID: Type.Integer({ minimum: 1 }) });

const ValidationResult = Type.Object({
  row: Type.Integer({ description: 'file line (the header is line 1; a quoted cell spanning lines counts where its record starts); 0 when not at a line' }),
  column: Type.String({ description: 'the file header the problem is in; "" for the whole line or file' }),
  severity: Type.Union(SEVERITIES.map((s) => Type.Literal(s)), { description: 'ERROR: the import refuses the line (or the file); WARNING: a note, the line still imports' }),
  message: Type.String(),
});

export const ValidationData = Type.Object({
  import_validation_id: Type.Integer(),
  import_definition_id: Type.String({ description: 'the definition validated against, ";" between parts' }),
  status: Type.Union(VALIDATION_STATUSES.map((s) => Type.Literal(s))),
  lines_validated: Type.Integer({ description: 'data lines checked so far' }),
  validation_result_groups: Type.Array(
    Type.Object({
      name: Type.String({ description: 'the column header the results are in; "file", "header" or "line" for problems of the file, its header, or whole lines' }),
      validation_results: Type.Array(ValidationResult, { description: `the first results of the group in file order, at most ${MAX_RESULTS_PER_GROUP}` }),
      total_results: Type.Integer({ description: 'results the group has' }),
      omitted_results: Type.Integer({ description: 'results of the group this response leaves out (over the caps)' }),
    }),
    { description: `groups in the order file, header, line, then the columns as the file has them; at most ${MAX_RESULTS_PER_RESPONSE} results in all per response` },
  ),
  ...Preview,
});
