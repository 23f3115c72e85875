import type { Db } from '../../db/tx.js';
import type { ReportRow } from './model.js';

/** Keyset position of GET /v1/report, which lists the most recent reports first. */
export interface ReportKeyset {
  ts: string;
  id: number;
}

export interface ReportListFilter {
  /** Only reports created after this instant (ISO), or null. */
  createdAfter: string | null;
}

/** One page of the account's reports, newest first (requested time, then id, both descending). */
export async function listReports(
  db: Db,
  accountId: number,
  filter: ReportListFilter,
  before: ReportKeyset | null,
  pageLength: number,
): Promise<{ rows: ReportRow[]; next: ReportKeyset | null }> {
  let query = db.selectFrom('reports').selectAll().where('account_id', '=', accountId);
  if (filter.createdAfter !== null) query = query.where('requested_at', '>', filter.createdAfter);
  if (before) {
    query = query.where((eb) =>
      eb.or([eb('requested_at', '<', before.ts), eb.and([eb('requested_at', '=', before.ts), eb('id', '<', before.id)])]),
    );
  }
  const rows = await query.orderBy('requested_at', 'desc').orderBy('id', 'desc').limit(pageLength + 1).execute();
  const page = rows.slice(0, pageLength);
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > pageLength && last ? { ts: last.requested_at, id: last.id } : null };
}
