import type { Db } from '../../../db/tx.js';
import { notFound } from '../../errors.js';
import { findValidation } from './create-validation.js';
import { previewOf, groupOrder } from './read-results.js';

/** Results read per query: a validation may hold 100,000 of them, streamed a page at a time. */
const PAGE = 1000;

/**
 * Every result of a validation as CSV records `line, column, severity, message`, in the order the console
 * shows them (the file, the header, whole lines, then the columns as the file has them; file order within
 * each), read in keyset pages on the (validation, group, id) index. Another account's validation is not found
 * (checked before the first record, so the caller can still answer 404).
 */
export async function validationResultRows(db: Db, accountId: number, validationId: number): Promise<AsyncGenerator<[number, string, string, string]>> {
  const row = await findValidation(db, accountId, validationId);
  if (!row) throw notFound(`import validation ${validationId} not found`);
  const groups = await db
    .selectFrom('import_validation_results')
    .select('group_name')
    .distinct()
    .where('validation_id', '=', row.id)
    .where('account_id', '=', accountId)
    .execute();
  const ordered = groupOrder(
    groups.map((g) => g.group_name),
    previewOf(row).supplied_headers,
  );
  return (async function* () {
    for (const group of ordered) {
      let after = 0;
      for (;;) {
        const rows = await db
          .selectFrom('import_validation_results')
          .select(['id', 'row_number', 'column_name', 'severity', 'message'])
          .where('validation_id', '=', row.id)
          .where('group_name', '=', group)
          .where('id', '>', after)
          .where('account_id', '=', accountId)
          .orderBy('id')
          .limit(PAGE)
          .execute();
        for (const r of rows) yield [r.row_number, r.column_name, r.severity, r.message] as [number, string, string, string];
        if (rows.length < PAGE) break;
        after = rows[rows.length - 1]!.id;
      }
    }
  })();
}
