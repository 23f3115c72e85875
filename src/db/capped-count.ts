import type { SelectQueryBuilder } from 'kysely';
import type { Db } from './tx.js';

/** Counts shown to people stop here ("1000+"): an exact count of a large backlog would cost a full scan. */
export const COUNT_CAP = 1000;

/**
 * How many rows the query yields, counting at most `cap + 1` of them: the inner LIMIT stops the index range
 * read early, so the cost is bounded however many rows match. A result above `cap` means "more than cap".
 */
export async function cappedCount<DB, TB extends keyof DB, O>(db: Db, query: SelectQueryBuilder<DB, TB, O>, cap = COUNT_CAP): Promise<number> {
  const row = await db
    .selectFrom(query.limit(cap + 1).as('capped'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  // pg answers count(*) as a string.
  return Number(row?.n ?? 0);
}
