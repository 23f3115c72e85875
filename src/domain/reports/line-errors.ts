import type { Db } from '../../db/tx.js';

/** A page of an import's line errors for reading on screen, in line order, keyset-paged on (line, id). */
export interface LineErrorPage {
  errors: { line: number; column: string; message: string }[];
  next: { line: number; id: number } | null;
}

export async function lineErrorPage(db: Db, accountId: number, reportId: number, after: { line: number; id: number } | null, limit: number): Promise<LineErrorPage> {
  let query = db
    .selectFrom('report_line_errors')
    .select(['id', 'line', 'column_name', 'message'])
    .where('report_id', '=', reportId)
    .where('account_id', '=', accountId);
  if (after) query = query.where((eb) => eb.or([eb('line', '>', after.line), eb.and([eb('line', '=', after.line), eb('id', '>', after.id)])]));
  const rows = await query.orderBy('line').orderBy('id').limit(limit + 1).execute();
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    errors: page.map((r) => ({ line: r.line, column: r.column_name, message: r.message })),
    next: rows.length > limit && last ? { line: last.line, id: last.id } : null,
  };
}
