import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Reports, imports and import validation (document 2.7, 2.9; resolutions §3, §6, §8):
 * - the catalog fields a product file carries (the product's own fields, beside the listings' per-storefront
 *   data) and the seller's own product attributes;
 * - the file store's metadata and, when files live in the database (the default), their chunks;
 * - report records, their per-line errors, the seller's import templates, and import validations with
 *   their results.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { idType, idColumn, dialect }: MigrationContext): Promise<void> {
  for (const column of PRODUCT_TEXT_COLUMNS) {
    await db.schema.alterTable('products').addColumn(column, 'text').execute();
  }

  // Exports page an account's products by id.
  await db.schema.createIndex('products_account_id').on('products').columns(['account_id', 'id']).execute();

  await db.schema
    .createTable('product_attributes')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('attribute_id', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('product_attributes_pk', ['account_id', 'product_id', 'attribute_id'])
    .execute();
  await db.schema.createIndex('product_attributes_account_attribute').on('product_attributes').columns(['account_id', 'attribute_id']).execute();

  await db.schema
    .createTable('stored_files')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('chunk_count', 'integer', (c) => c.notNull().defaultTo(0))
    /** WRITING while bytes arrive; READY once complete (a file still WRITING is never served). */
    .addColumn('state', 'text', (c) => c.notNull())
    /** 'db' (chunks below) or 'dir' (FILE_STORE_DIR). */
    .addColumn('storage', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stored_files_account').on('stored_files').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('stored_files_created').on('stored_files').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('stored_file_chunks')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('stored_files.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('stored_file_chunks_pk', ['file_id', 'seq'])
    .execute();

  await db.schema
    .createTable('import_templates')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('import_type', 'text', (c) => c.notNull())
    /** JSON text: {<file header>: <field or attribute id>}. */
    .addColumn('columns', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('import_templates_account_name').on('import_templates').columns(['account_id', 'name']).unique().execute();

  await db.schema
    .createTable('reports')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('label', 'text')
    .addColumn('is_export', 'integer', (c) => c.notNull())
    /** importType or exportType (resolutions §8). */
    .addColumn('report_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    /** JSON text: the settable fields of the record as requested (document 2.9). */
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('template_id', 'integer')
    .addColumn('integration_id', 'integer')
    .addColumn('uploader', 'text')
    /** JSON text array, the header of the file. */
    .addColumn('column_types', 'text')
    .addColumn('total_lines', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lines_processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_lines', 'integer', (c) => c.notNull().defaultTo(0))
    /** Checkpoint: data lines whose outcome is committed (applied or errored); a resumed run skips them. */
    .addColumn('lines_done', 'integer', (c) => c.notNull().defaultTo(0))
    /** Data lines of an import's file (counted before any is applied), for progress. */
    .addColumn('expected_lines', 'integer')
    .addColumn('error_message', 'text')
    .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
    /** The uploaded file of an import. */
    .addColumn('source_file_id', 'integer')
    /** The file an export produced. */
    .addColumn('result_file_id', 'integer')
    .addColumn('file_name', 'text')
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reports_account_requested').on('reports').columns(['account_id', 'requested_at', 'id']).execute();
  await db.schema.createIndex('reports_completed').on('reports').columns(['completed_at', 'id']).execute();

  await db.schema
    .createTable('report_line_errors')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('column_name', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('report_line_errors_report').on('report_line_errors').columns(['report_id', 'line', 'id']).execute();

  await db.schema
    .createTable('import_validations')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('definition_id', 'text', (c) => c.notNull())
    .addColumn('import_type', 'text', (c) => c.notNull())
    .addColumn('integration_id', 'integer')
    .addColumn('template_id', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('supplied_headers', 'text')
    .addColumn('actual_headers', 'text')
    .addColumn('first_rows', 'text')
    .addColumn('lines_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_message', 'text')
    .addColumn('source_file_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('import_validations_account').on('import_validations').columns(['account_id', 'id']).execute();

  await db.schema
    .createTable('import_validation_results')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('validation_id', 'integer', (c) => c.notNull().references('import_validations.id').onDelete('cascade'))
    .addColumn('group_name', 'text', (c) => c.notNull())
    .addColumn('row_number', 'integer', (c) => c.notNull())
    .addColumn('column_name', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('import_validation_results_validation').on('import_validation_results').columns(['validation_id', 'group_name', 'id']).execute();
}

/** Catalog fields added to products (all optional text; prices and measures are decimal strings). */
const PRODUCT_TEXT_COLUMNS = [
  'description',
  'brand',
  'manufacturer',
  'mpn',
  'model_number',
  'product_condition',
  'upc',
  'ean',
  'isbn',
  'gtin',
  'price',
  'msrp',
  'map_price',
  'cost',
  'weight',
  'weight_unit',
  'length',
  'width',
  'height',
  'dimension_unit',
  'category',
  'tags',
  'image_url',
] as const;
