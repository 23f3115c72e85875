import { Type } from '@sinclair/typebox';
import { IMPORT_TYPES, type ImportType } from '../../../domain/reports/model.js';
import { MAX_TEMPLATE_COLUMNS } from '../../../domain/reports/templates.js';
import { MAX_ID_LENGTH, Timestamp } from '../../schemas/common.js';
import { Id, NameInput } from '../schemas.js';

export const TAGS = ['admin'];

export const TemplateParams = Type.Object({ accountId: Id('account id'), templateId: Id('import template id') });

// `enum` so a bad value is answered with the allowed ones; the domain then refuses the types without templates.
const ImportTypeInput = Type.Unsafe<ImportType>({
  type: 'string',
  enum: [...IMPORT_TYPES],
  description: 'the import type the template serves; only FullProductData has templates',
  examples: ['FullProductData'],
});

const Columns = Type.Record(Type.String(), Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH }), {
  maxProperties: MAX_TEMPLATE_COLUMNS,
  description:
    '{<file header>: <product field name or attribute id>}. Headers compare case-insensitively with spaces and _ equal; ' +
    'one header must map to sku. A target that is not a product field name (title, price, upc, …) is an attribute id.',
  examples: [{ 'Item Number': 'sku', 'Product Name': 'title', 'Retail Price': 'price', Colour: 'color' }],
});

const EXAMPLE = { name: 'Supplier feed', importType: 'FullProductData', columns: { 'Item Number': 'sku', 'Product Name': 'title', 'Retail Price': 'price', Colour: 'color' } };

export const CreateTemplateBody = Type.Object(
  { name: NameInput('unique within the account'), importType: ImportTypeInput, columns: Columns },
  { additionalProperties: false, examples: [EXAMPLE] },
);

export const UpdateTemplateBody = Type.Object(
  { name: NameInput('unique within the account'), importType: Type.Optional(ImportTypeInput), columns: Columns },
  { additionalProperties: false, examples: [{ name: EXAMPLE.name, columns: EXAMPLE.columns }] },
);

export const ImportTemplate = Type.Object(
  {
    templateId: Type.Integer(),
    name: Type.String(),
    importType: Type.String(),
    columns: Type.Record(Type.String(), Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { examples: [{ templateId: 4, ...EXAMPLE, createdAt: '2026-11-21T22:13:08.123Z', updatedAt: '2026-11-21T22:13:08.123Z' }] },
);

export const ImportTemplateList = Type.Object({ results: Type.Array(ImportTemplate) });

export const RULES =
  'A template is the seller\'s saved column mapping for FullProductData imports (POST /v1/report with importType ' +
  'FullProductData and templateId): each file header maps to a product field name or an attribute id, and one header ' +
  'must map to sku. Read-only fields (created_at, updated_at) cannot be mapped. Names are unique within the account (409).';
