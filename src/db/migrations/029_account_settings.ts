import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Account settings (resolutions §10, src/domain/accounts/account-settings.ts), set by the operator:
 * - currency_code: ISO 4217 code the console shows the account's money in;
 * - time_zone: IANA name the console shows the account's dates in;
 * - personal_data_retention_days: days after an order closes that buyers' personal data is kept; null keeps it.
 *   Only stored for now: the sweep that redacts orders past it comes with the retention policy (issue 29).
 * Existing accounts get the defaults (USD, UTC, 30 days), as a new account does.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('currency_code', 'text', (c) => c.notNull().defaultTo('USD'))
    .execute();
  await db.schema
    .alterTable('accounts')
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .execute();
  await db.schema.alterTable('accounts').addColumn('personal_data_retention_days', 'integer', (c) => c.defaultTo(30)).execute();
}
