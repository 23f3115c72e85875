import { cappedCount } from '../../db/capped-count.js';
import type { Db } from '../../db/tx.js';

/** How far back the console's home looks for failed reports and validations. */
export const RECENT_FAILURE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Reports and import validations of the account that ended with an error (errorMessage set: a report that
 * could not be processed is CANCELED with one, a validation COMPLETE with one) in the last RECENT_FAILURE_MS.
 * Reports read the (account_id, requested_at, id) range; validations the account's (account_id, id) range.
 * Each count is capped (COUNT_CAP).
 */
export async function countRecentFailedReports(db: Db, accountId: number, now: Date): Promise<{ reports: number; validations: number }> {
  const since = new Date(now.getTime() - RECENT_FAILURE_MS).toISOString();
  const [reports, validations] = await Promise.all([
    cappedCount(
      db,
      db.selectFrom('reports').select('id').where('account_id', '=', accountId).where('requested_at', '>=', since).where('error_message', 'is not', null),
    ),
    cappedCount(
      db,
      db
        .selectFrom('import_validations')
        .select('id')
        .where('account_id', '=', accountId)
        .where('created_at', '>=', since)
        .where('error_message', 'is not', null),
    ),
  ]);
  return { reports, validations };
}
