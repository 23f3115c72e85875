import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Idempotency-Key effects recorded in the effect's own transaction (src/db/effect-journal.ts): claim_id
 * says which request currently owns a PENDING key (a retry that takes the key over changes it, so the
 * old owner can no longer commit), and idempotency_effects holds each committed transaction's result until
 * the response is stored, so a retry after a crash replays those transactions instead of running them again.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('claim_id', 'text').execute();
  await db.schema
    .createTable('idempotency_effects')
    .addColumn('token_id', 'integer', (c) => c.notNull())
    .addColumn('idem_key', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_effects_pk', ['token_id', 'idem_key', 'seq'])
    .execute();
  await db.schema.createIndex('idempotency_effects_expiry').on('idempotency_effects').columns(['expires_at']).execute();
}
