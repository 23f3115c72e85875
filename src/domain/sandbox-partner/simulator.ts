import type { Logger } from 'pino';
import type { DbHandle } from '../../db/connect.js';
import type { Db } from '../../db/tx.js';
import type { Clock } from '../../lib/clock.js';
import type { Signer } from '../../lib/signer.js';
import { callbackTargetOf } from '../callbacks/secrets.js';
import type { StatusCheck } from '../callbacks/status-checks.js';
import { verifySignedCall, type SignedCall, type VerifyFailure } from './verify.js';

/**
 * The sandbox's partner simulator: the storefront partner and the shipping partner the sandbox's apps call
 * back (document 6.1, docs/partners/callbacks.md), answering as a well-behaved partner does. Every call is
 * verified first (5.5) with the app's own signing secrets, read where the service keeps them (the
 * simulator plays the partner, who holds the same secret); only then is the path looked at.
 *
 *   POST   /ingestion/initiate                         200 {}
 *   GET    /v2/storefront/status/{storefrontId}        200 {"checks":[…]}   (2.20)
 *   DELETE /v2/storefront/configuration/{storefrontId} 200 {}
 *   POST   /events (an event nudge)                    200 {}
 *   a call that fails verification                     401 {"code":16,…}
 *   a storefront that is not this app's, anything else 404
 *
 * Each call is recorded in sandbox_partner_calls (the newest MAX_CALLS_PER_APP per app) and logged as one
 * line, never with the secret or the signature.
 */

export type SimulatedKind = 'ingestion-initiate' | 'storefront-status' | 'delete-configuration' | 'nudge';

/** Calls kept per app: the log is for a developer looking at what just happened, not an archive. */
export const MAX_CALLS_PER_APP = 500;

export interface SimulatorAnswer {
  status: number;
  body: unknown;
}

export interface SimulatedCall extends SignedCall {
  appId: number;
  /** The callback path below the app's base URL (what the route is chosen by). */
  path: string;
}

/** What the simulator uses of the process: it reads and records in the database, checks signatures, logs. */
export interface SimulatorPorts {
  db: DbHandle;
  signer: Signer;
  clock: Clock;
  log: Logger;
}

function v2Error(status: number, code: number, message: string): SimulatorAnswer {
  return { status, body: { code, message, details: [] } };
}

/** The storefront must be one of this app's installations in its account (what the partner would know). */
async function ownStorefront(deps: SimulatorPorts, accountId: number, appId: number, storefrontId: string): Promise<boolean> {
  if (!/^\d{1,15}$/.test(storefrontId)) return false;
  const row = await deps.db.db
    .selectFrom('installations')
    .select('id')
    .where('account_id', '=', accountId)
    .where('app_id', '=', appId)
    .where('id', '=', Number(storefrontId))
    .where('kind', '=', 'SALES_CHANNEL')
    .executeTakeFirst();
  return row !== undefined;
}

/** Listings counted for the status answer: beyond this the check just says "1,000+". */
const LISTINGS_COUNTED = 1000;

/** What a channel reports about itself: the call verified, and whether it has the storefront's listings yet. */
async function statusChecks(deps: SimulatorPorts, accountId: number, storefrontId: number): Promise<StatusCheck[]> {
  // At most LISTINGS_COUNTED + 1 ids read, so a large storefront costs the seller's wait nothing more.
  const listings = await deps.db.db
    .selectFrom('listings')
    .select('id')
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .limit(LISTINGS_COUNTED + 1)
    .execute();
  const count = listings.length > LISTINGS_COUNTED ? `${LISTINGS_COUNTED.toLocaleString('en-US')}+ listings` : `${listings.length} listing${listings.length === 1 ? '' : 's'}`;
  return [
    { name: 'credentials', state: 'CHECK_STATE_PASS', stateShortDescription: 'Signed call verified', details: "The partner simulator verified this call with the app's signing secret." },
    listings.length > 0
      ? { name: 'catalog', state: 'CHECK_STATE_PASS', stateShortDescription: `${count} on the storefront`, details: '' }
      : { name: 'catalog', state: 'CHECK_STATE_WARNING', stateShortDescription: 'No listings yet', details: 'Create a listing for this storefront to sell on it.' },
  ];
}

async function route(deps: SimulatorPorts, accountId: number, call: SimulatedCall): Promise<{ kind: SimulatedKind | null; answer: SimulatorAnswer }> {
  const { method, path } = call;
  if (method === 'POST' && path === '/ingestion/initiate') return { kind: 'ingestion-initiate', answer: { status: 200, body: {} } };
  if (method === 'POST' && path === '/events') return { kind: 'nudge', answer: { status: 200, body: {} } };
  const status = /^\/v2\/storefront\/status\/([^/]+)$/.exec(path);
  if (method === 'GET' && status) {
    if (!(await ownStorefront(deps, accountId, call.appId, status[1]!))) return { kind: null, answer: v2Error(404, 5, `storefront ${status[1]} is not one of this app's`) };
    return { kind: 'storefront-status', answer: { status: 200, body: { checks: await statusChecks(deps, accountId, Number(status[1])) } } };
  }
  const configuration = /^\/v2\/storefront\/configuration\/([^/]+)$/.exec(path);
  if (method === 'DELETE' && configuration) {
    if (!(await ownStorefront(deps, accountId, call.appId, configuration[1]!))) return { kind: null, answer: v2Error(404, 5, `storefront ${configuration[1]} is not one of this app's`) };
    return { kind: 'delete-configuration', answer: { status: 200, body: {} } };
  }
  return { kind: null, answer: v2Error(404, 5, `the partner simulator has no ${method} ${path}`) };
}

/** Keeps the newest MAX_CALLS_PER_APP calls of the app: one indexed lookup and one ranged delete. */
async function prune(deps: SimulatorPorts, appId: number): Promise<void> {
  const oldestKept = await deps.db.db
    .selectFrom('sandbox_partner_calls')
    .select('id')
    .where('app_id', '=', appId)
    .orderBy('id', 'desc')
    .offset(MAX_CALLS_PER_APP - 1)
    .limit(1)
    .executeTakeFirst();
  if (oldestKept) await deps.db.db.deleteFrom('sandbox_partner_calls').where('app_id', '=', appId).where('id', '<', oldestKept.id).execute();
}

/** Answers one call to the simulated partner of `call.appId`. */
export async function answerSimulatedCall(deps: SimulatorPorts, call: SimulatedCall): Promise<SimulatorAnswer> {
  const now = deps.clock.now();
  const simulated = await deps.db.db.selectFrom('sandbox_partner_apps').select(['account_id']).where('app_id', '=', call.appId).executeTakeFirst();
  // Only apps the sandbox created are simulated; nothing is recorded for any other id.
  if (!simulated) return v2Error(404, 5, `app ${call.appId} is not simulated by the sandbox's partner simulator`);
  const accountId = simulated.account_id;
  const target = await callbackTargetOf(deps.db.db, deps.signer, call.appId, now);
  const verified = target ? verifySignedCall(call, target.secrets, now) : ({ ok: false, reason: 'signature-mismatch' } as const);
  let kind: SimulatedKind | null = null;
  let rejection: VerifyFailure | null = null;
  let answer: SimulatorAnswer;
  if (!verified.ok) {
    rejection = verified.reason;
    answer = v2Error(401, 16, 'the callback signature is not valid');
  } else {
    ({ kind, answer } = await route(deps, accountId, call));
  }
  const deliveryId = call.headers['x-service-delivery-id'] ?? '';
  await deps.db.db
    .insertInto('sandbox_partner_calls')
    .values({
      account_id: accountId,
      app_id: call.appId,
      received_at: now.toISOString(),
      method: call.method,
      path: call.pathWithQuery.slice(0, 2000),
      delivery_id: deliveryId.slice(0, 100),
      kind,
      verified: verified.ok ? 1 : 0,
      rejection,
      status: answer.status,
    })
    .execute();
  await prune(deps, call.appId);
  deps.log.info(
    { sandboxPartner: { appId: call.appId, method: call.method, path: call.pathWithQuery, deliveryId, kind, rejection, status: answer.status } },
    `partner simulator: ${call.method} ${call.pathWithQuery} ${rejection ? `rejected (${rejection})` : `verified ${kind ?? 'unknown callback'}`} -> ${answer.status}`,
  );
  return answer;
}

export interface SimulatorCallView {
  appId: number;
  receivedAt: string;
  method: string;
  path: string;
  deliveryId: string;
  kind: SimulatedKind | null;
  verified: boolean;
  rejection: VerifyFailure | null;
  status: number;
}

/** The account's simulator log, newest first (at most `limit` calls). */
export async function simulatorCalls(db: Db, accountId: number, limit = 100): Promise<SimulatorCallView[]> {
  const rows = await db
    .selectFrom('sandbox_partner_calls')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(Math.min(Math.max(1, limit), MAX_CALLS_PER_APP))
    .execute();
  return rows.map((r) => ({
    appId: r.app_id,
    receivedAt: r.received_at,
    method: r.method,
    path: r.path,
    deliveryId: r.delivery_id,
    kind: r.kind as SimulatedKind | null,
    verified: r.verified === 1,
    rejection: r.rejection as VerifyFailure | null,
    status: r.status,
  }));
}
