/**
 * The operator's view of ingestion sessions (DESIGN.md "Operator API"): list newest first and read one
 * with its plan. Acting on them (apply, discard) lives in ingestion-apply.ts.
 */
import type { Db } from '../../db/tx.js';
import type { IngestionPlan, PlanSummary } from './ingestion-plan.js';
import { SESSION_STATE_COLUMNS, type IngestionSessionRow, type IngestionSessionState, type IngestionStatus } from './ingestion-session.js';
import { requireStorefront } from './storefront-settings.js';
import { notFound } from '../errors.js';
import { getAccount } from '../accounts/accounts.js';

export interface IngestionSummaryView {
  ingestionId: number;
  storefrontId: number;
  status: IngestionStatus;
  expectedNumListings: number;
  /** null until end. */
  actualNumListings: number | null;
  receivedCount: number;
  autoApplyIngestionPlan: boolean;
  /** Why planning or an automatic apply failed; null otherwise. */
  error: string | null;
  /** The plan's counts; null until planned. */
  summary: PlanSummary | null;
  /** How far the apply got (listings applied of those received); null until the apply starts. */
  progress: { applied: number; total: number } | null;
  begunAt: string;
  endedAt: string | null;
  plannedAt: string | null;
  appliedAt: string | null;
  updatedAt: string;
}

export interface IngestionDetailView extends IngestionSummaryView {
  plan: IngestionPlan | null;
}

function toIngestionSummary(row: IngestionSessionState): IngestionSummaryView {
  return {
    ingestionId: row.id,
    storefrontId: row.storefront_id,
    status: row.status as IngestionStatus,
    expectedNumListings: row.expected_num_listings,
    actualNumListings: row.actual_num_listings,
    receivedCount: row.received_count,
    autoApplyIngestionPlan: row.auto_apply === 1,
    error: row.error,
    summary: row.plan_summary === null ? null : (JSON.parse(row.plan_summary) as PlanSummary),
    progress: row.apply_total === null ? null : { applied: row.apply_done, total: row.apply_total },
    begunAt: row.begun_at,
    endedAt: row.ended_at,
    plannedAt: row.planned_at,
    appliedAt: row.applied_at,
    updatedAt: row.updated_at,
  };
}

export function toIngestionDetail(row: IngestionSessionRow): IngestionDetailView {
  return { ...toIngestionSummary(row), plan: row.plan === null ? null : (JSON.parse(row.plan) as IngestionPlan) };
}

/**
 * The detail view as JSON text, the stored plan spliced in as it is: a large ingestion's plan is a megabyte
 * of JSON, which parsing and serializing again would cost tens of milliseconds of the event loop per read.
 * The stored text is JSON.stringify of an IngestionPlan (written by this service only), so it is valid JSON of
 * the view's shape.
 */
export async function getIngestionJson(db: Db, accountId: number, ingestionId: number): Promise<string> {
  const row = await db.selectFrom('ingestion_sessions').selectAll().where('account_id', '=', accountId).where('id', '=', ingestionId).executeTakeFirst();
  if (!row) throw notFound(`ingestion ${ingestionId} not found in this account`);
  const summary = JSON.stringify(toIngestionSummary(row));
  return `${summary.slice(0, -1)},"plan":${row.plan ?? 'null'}}`;
}

/** The ingestion without its plan (status, counts, summary, progress): no plan is read or parsed. */
export async function getIngestionSummary(db: Db, accountId: number, ingestionId: number): Promise<IngestionSummaryView> {
  const row = await db.selectFrom('ingestion_sessions').select(SESSION_STATE_COLUMNS).where('account_id', '=', accountId).where('id', '=', ingestionId).executeTakeFirst();
  if (!row) throw notFound(`ingestion ${ingestionId} not found in this account`);
  return toIngestionSummary(row);
}

export async function getIngestion(db: Db, accountId: number, ingestionId: number): Promise<IngestionDetailView> {
  const row = await db.selectFrom('ingestion_sessions').selectAll().where('account_id', '=', accountId).where('id', '=', ingestionId).executeTakeFirst();
  if (!row) throw notFound(`ingestion ${ingestionId} not found in this account`);
  return toIngestionDetail(row);
}

/**
 * One page of the account's sessions, newest first (keyset on id: ids grow with begin time), optionally of
 * one storefront (another account's storefront is a 404). nextBeforeId is null on the last page.
 */
export async function listIngestions(
  db: Db,
  accountId: number,
  filter: { storefrontId?: number },
  beforeId: number | null,
  pageSize: number,
): Promise<{ ingestions: IngestionSummaryView[]; nextBeforeId: number | null }> {
  await getAccount(db, accountId);
  if (filter.storefrontId !== undefined) await requireStorefront(db, accountId, filter.storefrontId);
  let query = db.selectFrom('ingestion_sessions').select(SESSION_STATE_COLUMNS).where('account_id', '=', accountId);
  if (filter.storefrontId !== undefined) query = query.where('storefront_id', '=', filter.storefrontId);
  if (beforeId !== null) query = query.where('id', '<', beforeId);
  const rows = await query.orderBy('id', 'desc').limit(pageSize + 1).execute();
  const page = rows.slice(0, pageSize);
  const ingestions = page.map(toIngestionSummary);
  return { ingestions, nextBeforeId: rows.length > pageSize ? page[page.length - 1]!.id : null };
}
