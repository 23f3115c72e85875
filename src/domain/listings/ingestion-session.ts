/**
 * Ingestion sessions (document 3.8, 4.7): a sales channel pushes the listings already live on it with
 * begin, one request per listing, then end. A storefront has at most one OPEN session (ingestion_sessions
 * .open_key = storefront id while OPEN, unique). End hands the session to the `ingestion.build_plan` job.
 *
 * States: OPEN → (end) PLANNING → (job) PLANNED → (auto-apply or operator) APPLYING → (the apply, chunk by
 * chunk) APPLIED; OPEN, PLANNED or FAILED → DISCARDED (operator); PLANNING → FAILED when the plan job gives up.
 */
import type { Selectable } from 'kysely';
import { cappedCount } from '../../db/capped-count.js';
import type { Db, Tx } from '../../db/tx.js';
import type { IngestionSessionsTable } from '../../db/schema.js';
import { enqueueJob } from '../../db/outbox.js';
import { alreadyExists, failedPrecondition, invalidField } from '../errors.js';
import type { IngestionListing } from './ingestion-listing.js';

export const INGESTION_STATUSES = ['OPEN', 'PLANNING', 'PLANNED', 'APPLYING', 'APPLIED', 'FAILED', 'DISCARDED'] as const;
export type IngestionStatus = (typeof INGESTION_STATUSES)[number];

export const BUILD_INGESTION_PLAN = 'ingestion.build_plan';
export interface BuildPlanPayload {
  sessionId: number;
}

/** Counts are 32-bit integer columns on PostgreSQL. */
export const MAX_LISTING_COUNT = 2_147_483_647;

export type IngestionSessionRow = Selectable<IngestionSessionsTable>;
/** A session without its plan (which can be a megabyte of JSON): what every step but the plan's readers needs. */
export type IngestionSessionState = Omit<IngestionSessionRow, 'plan'>;

/** Every column but the plan itself. */
export const SESSION_STATE_COLUMNS = [
  'id',
  'account_id',
  'storefront_id',
  'status',
  'open_key',
  'expected_num_listings',
  'actual_num_listings',
  'received_count',
  'auto_apply',
  'plan_summary',
  'apply_total',
  'apply_done',
  'apply_after_id',
  'duplicates',
  'error',
  'begun_at',
  'ended_at',
  'planned_at',
  'applied_at',
  'updated_at',
] as const satisfies readonly (keyof IngestionSessionState)[];

const BEGIN_PATH = 'POST /v2/storefront/listing/ingestion/begin';
const END_PATH = 'POST /v2/storefront/listing/ingestion/end';

/** int64 count input (string or number) → a non-negative integer that fits the column. */
export function parseListingCount(field: string, raw: string | number | undefined): number {
  if (raw === undefined) return 0; // proto3: an unset int64 is 0
  const value = typeof raw === 'number' ? raw : /^-?\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value)) throw invalidField(field, 'must be an integer');
  if (value < 0) throw invalidField(field, 'must be 0 or more');
  if (value > MAX_LISTING_COUNT) throw invalidField(field, `must be at most ${MAX_LISTING_COUNT}`);
  return value + 0; // "-0" is 0
}

export async function findOpenSession(db: Db, accountId: number, storefrontId: number): Promise<IngestionSessionRow | null> {
  const row = await db
    .selectFrom('ingestion_sessions')
    .selectAll()
    .where('open_key', '=', storefrontId)
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .executeTakeFirst();
  return row ?? null;
}

function sessionAlreadyOpen(open: { id: number; begun_at: string } | null): Error {
  const which = open ? ` (ingestion ${open.id}, begun ${open.begun_at})` : '';
  return alreadyExists(
    `an ingestion session is already open for this storefront${which}; finish it with ${END_PATH} ` +
      `before beginning another (the operator can also discard it)`,
  );
}

/**
 * Opens a session. A second begin while one is OPEN is ALREADY_EXISTS (409) and changes nothing; two
 * parallel begins race on the unique open_key and exactly one wins.
 */
export async function beginIngestion(
  tx: Tx,
  accountId: number,
  storefrontId: number,
  input: { expectedNumListings: number; autoApply: boolean },
  now: Date,
): Promise<{ ingestionId: number }> {
  const iso = now.toISOString();
  // ON CONFLICT DO NOTHING rather than catching the unique violation: a failed statement would abort a
  // PostgreSQL transaction, and a parallel begin waits here for the other one to commit.
  const row = await tx
    .insertInto('ingestion_sessions')
    .values({
      account_id: accountId,
      storefront_id: storefrontId,
      status: 'OPEN',
      open_key: storefrontId,
      expected_num_listings: input.expectedNumListings,
      actual_num_listings: null,
      received_count: 0,
      auto_apply: input.autoApply ? 1 : 0,
      plan: null,
      error: null,
      begun_at: iso,
      ended_at: null,
      planned_at: null,
      applied_at: null,
      updated_at: iso,
    })
    .onConflict((oc) => oc.column('open_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) throw sessionAlreadyOpen(await findOpenSession(tx, accountId, storefrontId));
  return { ingestionId: row.id };
}

function noOpenSession(): Error {
  return failedPrecondition(`no ingestion session is open for this storefront; call ${BEGIN_PATH} first`);
}

/**
 * Stores one ingestion listing in the OPEN session. Sending the same id again replaces the earlier body
 * (retry-safe); received_count counts distinct ids.
 */
export async function receiveIngestionListing(tx: Tx, accountId: number, storefrontId: number, listing: IngestionListing, now: Date): Promise<void> {
  const session = await findOpenSession(tx, accountId, storefrontId);
  if (!session) throw noOpenSession();
  const iso = now.toISOString();
  // The conditional UPDATE locks the session row: an end committed meanwhile makes it match nothing, so a
  // listing can never slip into a session whose plan is already being built.
  const locked = await tx
    .updateTable('ingestion_sessions')
    .set({ updated_at: iso })
    .where('id', '=', session.id)
    .where('account_id', '=', accountId)
    .where('status', '=', 'OPEN')
    .executeTakeFirst();
  if (Number(locked.numUpdatedRows) === 0) throw noOpenSession();
  await tx
    .insertInto('ingestion_listings')
    .values({ account_id: accountId, session_id: session.id, external_id: listing.id, body: JSON.stringify(listing), received_at: iso })
    .onConflict((oc) => oc.columns(['account_id', 'session_id', 'external_id']).doUpdateSet({ body: JSON.stringify(listing), received_at: iso }))
    .execute();
  await tx
    .updateTable('ingestion_sessions')
    .set((eb) => ({
      received_count: eb
        .selectFrom('ingestion_listings')
        .select((s) => s.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .where('session_id', '=', session.id),
    }))
    .where('id', '=', session.id)
    .where('account_id', '=', accountId)
    .execute();
}

/** Closes the OPEN session (→ PLANNING) and enqueues the plan job in the same transaction. */
export async function endIngestion(
  tx: Tx,
  accountId: number,
  storefrontId: number,
  input: { actualNumListings: number },
  now: Date,
): Promise<{ ingestionId: number }> {
  const session = await findOpenSession(tx, accountId, storefrontId);
  if (!session) throw noOpenSession();
  const iso = now.toISOString();
  const ended = await tx
    .updateTable('ingestion_sessions')
    .set({ status: 'PLANNING', open_key: null, actual_num_listings: input.actualNumListings, ended_at: iso, updated_at: iso })
    .where('id', '=', session.id)
    .where('account_id', '=', accountId)
    .where('status', '=', 'OPEN')
    .executeTakeFirst();
  if (Number(ended.numUpdatedRows) === 0) throw noOpenSession();
  await enqueueJob(
    tx,
    { type: BUILD_INGESTION_PLAN, accountId, payload: { sessionId: session.id } satisfies BuildPlanPayload, dedupeKey: `${BUILD_INGESTION_PLAN}:${session.id}` },
    now,
  );
  return { ingestionId: session.id };
}

/** A received ingestion listing with its row id (the arrival order, and the apply checkpoint). */
export interface IngestedRow {
  id: number;
  listing: IngestionListing;
}

/**
 * Up to `limit` received listings of a session after row `afterId`, in the order they first arrived. Planning
 * and applying read a session page by page with this, so no step parses a whole large ingestion at once.
 */
export async function readIngestedPage(db: Db, accountId: number, sessionId: number, afterId: number, limit: number): Promise<IngestedRow[]> {
  const rows = await db
    .selectFrom('ingestion_listings')
    .select(['id', 'body'])
    .where('account_id', '=', accountId)
    .where('session_id', '=', sessionId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), listing: JSON.parse(r.body) as IngestionListing }));
}

/** Ingestion plans waiting for the seller's review (PLANNED), a capped count on (account_id, status, id). */
export function countPlannedIngestions(db: Db, accountId: number): Promise<number> {
  return cappedCount(db, db.selectFrom('ingestion_sessions').select('id').where('account_id', '=', accountId).where('status', '=', 'PLANNED'));
}
