import type { Db } from '../../../db/tx.js';
import { notFound } from '../../errors.js';
import { findValidation } from './create-validation.js';
import { GROUP_FILE, GROUP_HEADER, GROUP_LINE, type Severity, type ValidationRow, type ValidationStatus } from './model.js';

/**
 * What one response carries at most: MAX_RESULTS_PER_GROUP results of each group (the first ones, in file
 * order) and MAX_RESULTS_PER_RESPONSE in all; a group always says how many results it has and how many
 * this response leaves out, so a validation with 100,000 problems answers a bounded document.
 */
export const MAX_RESULTS_PER_GROUP = 1000;
export const MAX_RESULTS_PER_RESPONSE = 10_000;

export interface ValidationResultView {
  row: number;
  column: string;
  severity: Severity;
  message: string;
}

export interface ValidationGroupView {
  name: string;
  validation_results: ValidationResultView[];
  total_results: number;
  omitted_results: number;
}

export interface ValidationView {
  import_validation_id: number;
  import_definition_id: string;
  status: ValidationStatus;
  lines_validated: number;
  validation_result_groups: ValidationGroupView[];
  supplied_headers: string[];
  actual_headers: string[];
  first_10_rows: string[][];
}

const parseList = <T>(text: string | null): T[] => (text ? (JSON.parse(text) as T[]) : []);

/** The preview part of a validation (also the POST's answer). */
export function previewOf(row: ValidationRow): Pick<ValidationView, 'supplied_headers' | 'actual_headers' | 'first_10_rows'> {
  return {
    supplied_headers: parseList<string>(row.supplied_headers),
    actual_headers: parseList<string>(row.actual_headers),
    first_10_rows: parseList<string[]>(row.first_rows),
  };
}

/** Groups in the order a seller works through them: the file, the header, whole lines, then the columns as the file has them. */
export function groupOrder(names: string[], header: string[]): string[] {
  const fixed = [GROUP_FILE, GROUP_HEADER, GROUP_LINE];
  const position = new Map(header.map((h, i) => [h, i]));
  const rank = (name: string) => {
    const f = fixed.indexOf(name);
    if (f !== -1) return f - fixed.length;
    return position.get(name) ?? Number.MAX_SAFE_INTEGER;
  };
  return [...names].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * A validation's data (resolutions §3), readable at any time: while PENDING or PROCESSING it holds the
 * results stored so far. Another account's validation is not found.
 */
export async function readValidation(db: Db, accountId: number, validationId: number): Promise<ValidationView> {
  const row = await findValidation(db, accountId, validationId);
  if (!row) throw notFound(`import validation ${validationId} not found`);
  const counts = await db
    .selectFrom('import_validation_results')
    .select(['group_name', (eb) => eb.fn.countAll().as('n')])
    .where('validation_id', '=', row.id)
    .where('account_id', '=', accountId)
    .groupBy('group_name')
    .execute();
  const preview = previewOf(row);
  const total = new Map(counts.map((c) => [c.group_name, Number(c.n)]));
  let budget = MAX_RESULTS_PER_RESPONSE;
  const groups: ValidationGroupView[] = [];
  for (const name of groupOrder([...total.keys()], preview.supplied_headers)) {
    const limit = Math.min(MAX_RESULTS_PER_GROUP, budget);
    const results =
      limit === 0
        ? []
        : await db
            .selectFrom('import_validation_results')
            .select(['row_number', 'column_name', 'severity', 'message'])
            .where('validation_id', '=', row.id)
            .where('account_id', '=', accountId)
            .where('group_name', '=', name)
            .orderBy('id')
            .limit(limit)
            .execute();
    budget -= results.length;
    // Results stored between the count and this read (a validation in progress) count too.
    const count = Math.max(total.get(name) ?? 0, results.length);
    groups.push({
      name,
      validation_results: results.map((r) => ({ row: r.row_number, column: r.column_name, severity: r.severity as Severity, message: r.message })),
      total_results: count,
      omitted_results: count - results.length,
    });
  }
  return {
    import_validation_id: row.id,
    import_definition_id: row.definition_id,
    status: row.status as ValidationStatus,
    lines_validated: row.lines_done,
    validation_result_groups: groups,
    ...preview,
  };
}
