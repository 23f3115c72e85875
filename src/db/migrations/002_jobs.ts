import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Background jobs (DESIGN.md "jobs/"): the outbox written in the same transaction as the change that causes
 * a job, a log of finished attempts, and the recurring schedules the workers share.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { idType, idColumn }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', idType, idColumn)
    // Null for service jobs (sweeps) that belong to no account.
    .addColumn('account_id', 'integer')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('last_error', 'text')
    // At most one PENDING or RUNNING job per dedupe key (partial unique index below).
    .addColumn('dedupe_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  // Leasing: due PENDING jobs in run_at order, and RUNNING jobs whose lease expired (a crashed worker).
  await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'run_at', 'id']).execute();
  await db.schema.createIndex('jobs_lease_expiry').on('jobs').columns(['status', 'lease_expires_at']).execute();
  // Operator listing, newest first by id, optionally narrowed by status, type or account.
  await db.schema.createIndex('jobs_status_list').on('jobs').columns(['status', 'id']).execute();
  await db.schema.createIndex('jobs_type_list').on('jobs').columns(['type', 'id']).execute();
  await db.schema.createIndex('jobs_account_list').on('jobs').columns(['account_id', 'id']).execute();
  await db.schema
    .createIndex('jobs_active_dedupe')
    .on('jobs')
    .column('dedupe_key')
    .unique()
    .where(sql<boolean>`status in ('PENDING', 'RUNNING') and dedupe_key is not null`)
    .execute();

  await db.schema
    .createTable('job_attempts')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer')
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('worker', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('job_attempts_job').on('job_attempts').columns(['job_id', 'id']).execute();

  await db.schema
    .createTable('job_schedules')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('next_run_at', 'text', (c) => c.notNull())
    .addColumn('last_job_id', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
