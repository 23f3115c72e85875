import type { Tx } from '../../db/tx.js';
import { readAhead, sendWithoutWaiting } from '../../db/fast-paths.js';
import type { Principal } from '../accounts/principal.js';
import { prefetchNudgeSubscribers } from '../callbacks/nudges.js';
import { conflict, failedPrecondition, invalidArgument, notFound, type AppError } from '../errors.js';
import { nudgeFulfillmentOrder, parseFulfillmentOrderId, WITHDRAWN_MESSAGE } from './access.js';
import { acknowledgeRows, readExternalIdsInUse, readOwnForAcknowledge, type AcknowledgeRow, type AcknowledgeWrite } from './acknowledge-statements.js';

export interface AcknowledgeEntry {
  fulfillmentOrderId: unknown;
  externalOrderId: string | null;
}

/** One entry's outcome, in request order: plain data (the effect journal records it under an Idempotency-Key). */
export type AcknowledgeResult = { ok: true; alreadyAcknowledged: boolean } | { ok: false; errorMessage: string };

/**
 * What the route's per-entry fallback answers when a parallel request took an entry's externalOrderId between this
 * call's check and its write (the unique index refused the write): the words of a unique violation in a batch entry
 * (src/http/v2/shipping/batch.ts runEntry), so the partner reads the same whichever way the race was noticed.
 */
export const CLAIMED_CONCURRENTLY = 'a concurrent request changed the same data first; read the order again before retrying';

export interface AcknowledgeOptions {
  /**
   * Filled, entry by entry, with the externalOrderId the entry is about to set (null: it sets none), before the
   * write: kept by the caller when the call's transaction fails, to pass back as `contested` (see there).
   */
  claims?: (string | null)[];
  /**
   * By entry: the externalOrderId an earlier, failed attempt of the same call was about to set. Another fulfillment
   * order holding it now took it in between (a parallel request): the entry answers CLAIMED_CONCURRENTLY, as it did
   * when the write itself met the other's claim.
   */
  contested?: readonly (string | null)[];
}

type OwnIntegration = Principal & { integrationId: number };

/**
 * NEW → ACCEPTED with the partner's externalOrderId (3.5; resolutions §4), for a call's entries at once. The order
 * stays in need_to_ship. Each entry answers what it did when the entries ran one after another, each in its own
 * transaction: a repeat with the same externalOrderId succeeds with alreadyAcknowledged; an unknown or not-your
 * order, a missing externalOrderId, a rejected or withdrawn order, another externalOrderId for an acknowledged one,
 * nothing owed, or an id another of the integration's orders holds fails the entry (success false, its message).
 * An entry sees what earlier entries of the call did: the same order named again is a repeat (or another id), an id
 * an earlier entry took is in use.
 *
 * Set-based: the named orders (locked, with their owed units), the externalOrderIds in use and who subscribed to
 * nudges are read at once; the entries are checked here; the acknowledged rows move in one UPDATE; each nudges its
 * integration as before. A database error fails the whole call: the caller then runs the entries one by one.
 */
export async function acknowledgeFulfillmentOrders(
  tx: Tx,
  principal: Principal,
  entries: readonly AcknowledgeEntry[],
  now: Date,
  options: AcknowledgeOptions = {},
): Promise<AcknowledgeResult[]> {
  const ids = entries.map((e) => parseFulfillmentOrderId(e.fulfillmentOrderId));
  const externalIds = entries.map((e) => e.externalOrderId?.trim() ?? '');
  const state = await readState(tx, principal, ids, externalIds);
  const claims = options.claims;
  if (claims) claims.length = 0;
  const writes: AcknowledgeWrite[] = [];
  const results = entries.map((entry, i): AcknowledgeResult => {
    const outcome = checkEntry(entry, ids[i]!, externalIds[i]!, state, options.contested?.[i] ?? null);
    if ('write' in outcome) {
      // What later entries of the call see: this order acknowledged, its id taken.
      const fo = outcome.fo;
      if (fo.external_order_id !== null && state.inUse.get(fo.external_order_id) === fo.id) state.inUse.delete(fo.external_order_id);
      fo.status = 'ACCEPTED';
      fo.external_order_id = outcome.write.externalOrderId;
      state.inUse.set(outcome.write.externalOrderId, fo.id);
      writes.push(outcome.write);
    }
    claims?.push('write' in outcome ? outcome.write.externalOrderId : null);
    if ('error' in outcome) return { ok: false, errorMessage: outcome.error.message };
    return { ok: true, alreadyAcknowledged: !('write' in outcome) };
  });
  if (writes.length === 0) return results;
  // The rows were read locked in this transaction and every one moved is NEW there: the UPDATE matches each of
  // them, so its answer is not waited for (it goes with the next statement; an error fails that one, or COMMIT).
  await sendWithoutWaiting(tx, acknowledgeRows(tx, principal.accountId, writes, now.toISOString()));
  for (const w of writes) await nudgeFulfillmentOrder(tx, principal.accountId, w.id, state.own.get(w.id)!.installation_id, now);
  return results;
}

interface CallState {
  /** The named fulfillment orders the caller owns, by id, as the entries so far left them. */
  own: Map<number, AcknowledgeRow>;
  /** externalOrderId → the fulfillment order holding it, for the ids the entries name. */
  inUse: Map<string, number>;
}

/** The three reads of a call, sent together (one round trip on PostgreSQL). */
async function readState(tx: Tx, principal: Principal, ids: readonly (number | null)[], externalIds: readonly string[]): Promise<CallState> {
  const named = [...new Set(ids.filter((id): id is number => id !== null))].sort((a, b) => a - b);
  const state: CallState = { own: new Map(), inUse: new Map() };
  if (principal.integrationId === null || named.length === 0) return state;
  const caller: OwnIntegration = { ...principal, integrationId: principal.integrationId };
  const namedExternal = [...new Set(externalIds.filter((e) => e !== ''))];
  await prefetchNudgeSubscribers(tx, principal.accountId, 'FULFILLMENT_ORDER_CHANGED');
  const ownRows = await readAhead(tx, readOwnForAcknowledge(tx, caller, named));
  // After the locking read on the same connection, so it sees the ids as they are once the rows are held.
  const inUse = namedExternal.length === 0 ? [] : (await tx.executeQuery(readExternalIdsInUse(tx, caller, namedExternal))).rows;
  for (const row of await ownRows()) {
    const id = Number(row.id);
    state.own.set(id, { ...row, id, account_id: Number(row.account_id), installation_id: Number(row.installation_id), owed: Number(row.owed) });
  }
  for (const row of inUse) if (row.external_order_id !== null) state.inUse.set(row.external_order_id, Number(row.id));
  return state;
}

type EntryOutcome = { error: AppError } | { repeat: true } | { write: AcknowledgeWrite; fo: AcknowledgeRow };

/** One entry's checks, in the order the one-entry version made them, against the call's state so far. */
function checkEntry(entry: AcknowledgeEntry, id: number | null, externalOrderId: string, state: CallState, contested: string | null): EntryOutcome {
  const fo = id === null ? undefined : state.own.get(id);
  if (!fo) return { error: notFound(`fulfillment order ${String(entry.fulfillmentOrderId ?? '')} not found`) };
  if (externalOrderId === '') return { error: invalidArgument('externalOrderId is required: your own id for this order') };
  if (fo.status === 'REJECTED') return { error: failedPrecondition('the fulfillment order was rejected; it can no longer be acknowledged') };
  if (fo.status === 'WITHDRAWN') return { error: failedPrecondition(WITHDRAWN_MESSAGE) };
  if (fo.status === 'ACCEPTED') {
    if (fo.external_order_id === externalOrderId) return { repeat: true };
    return { error: failedPrecondition(`already acknowledged with externalOrderId "${fo.external_order_id ?? ''}"`) };
  }
  if (fo.owed === 0) return { error: failedPrecondition('nothing is owed on this fulfillment order (shipped or cancelled)') };
  const taken = state.inUse.get(externalOrderId);
  if (taken !== undefined) {
    // An earlier attempt of this call meant to set it, and another order holds it now: a parallel request took it.
    if (contested === externalOrderId && taken !== fo.id) return { error: conflict(CLAIMED_CONCURRENTLY) };
    return { error: failedPrecondition(`externalOrderId "${externalOrderId}" is already used by fulfillment order ${taken}`) };
  }
  // The one-entry version's conditional UPDATE matched nothing in any other state and answered so.
  if (fo.status !== 'NEW') return { error: failedPrecondition('the fulfillment order changed while acknowledging it; read it again') };
  return { write: { id: fo.id, externalOrderId }, fo };
}
