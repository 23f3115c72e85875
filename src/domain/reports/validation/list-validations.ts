import type { Db } from '../../../db/tx.js';

export interface ValidationListEntry {
  id: number;
  importType: string;
  status: string;
  linesDone: number;
  createdAt: string;
  completedAt: string | null;
  errorMessage: string | null;
}

/**
 * The account's import validations, newest first, a page at a time (keyset on id over the (account, id)
 * index): `next` is the id to pass as `before` for the following page, null on the last one.
 */
export async function listValidations(db: Db, accountId: number, before: number | null, limit: number): Promise<{ rows: ValidationListEntry[]; next: number | null }> {
  let query = db
    .selectFrom('import_validations')
    .select(['id', 'import_type', 'status', 'lines_done', 'created_at', 'completed_at', 'error_message'])
    .where('account_id', '=', accountId);
  if (before !== null) query = query.where('id', '<', before);
  const rows = await query.orderBy('id', 'desc').limit(limit + 1).execute();
  const page = rows.slice(0, limit);
  return {
    rows: page.map((r) => ({
      id: r.id,
      importType: r.import_type,
      status: r.status,
      linesDone: r.lines_done,
      createdAt: r.created_at,
      completedAt: r.completed_at,
      errorMessage: r.error_message,
    })),
    next: rows.length > limit ? page[page.length - 1]!.id : null,
  };
}
