/**
 * The background workloads of bench/stall.ts, each driven through the HTTP API as a partner or seller would,
 * against a service in another process, and the helpers they share: here the ingestion and the callback
 * deliveries, the report workloads in stall-reports.ts. Every wait is bounded by the phase's deadline (Cutoff
 * past it).
 */
import type { PartnerSim } from '../src/cli/partner-sim-server.js';

export const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
export const MIB = 2 ** 20;

/** The phase ran past its deadline: what it measured is a bound, and the service may still be busy. */
export class Cutoff extends Error {}

export interface PhaseSpec {
  key: string;
  title: string;
  size: string;
  /** How many units the phase processes (listings, lines, products, MiB, deliveries). */
  units: number;
  /** "listings/s", "lines/s", …; "" for no throughput. */
  unit: string;
}

export interface PhaseOutcome {
  /** Seconds the throughput counts (the phase's own time, not the settle time after it). */
  seconds: number;
  detail: string;
  /** When the phase learned its real size (the export's rows). */
  units?: number;
  size?: string;
}

/**
 * Runs one measured phase: the caller opens the measurement window around `fn` and closes it after. `cutoff`:
 * the phase ran past its deadline or the service stopped answering (the database is left behind);
 * `failed`: it ended with an error.
 */
export type Measure = (spec: PhaseSpec, fn: (deadline: number) => Promise<PhaseOutcome>) => Promise<{ cutoff: boolean; failed: boolean }>;

export interface StallContext {
  base: string;
  accountId: number;
  sellerToken: string;
  channelToken: string;
  callbackStorefrontId: number;
  sim: PartnerSim;
  /** performance.now() of each delivery's arrival at the receiver, by delivery id. */
  arrivals: Map<string, number>;
  /** Whether the product import has run on this database (the inventory import and the export need a catalog). */
  catalogLoaded: boolean;
  /** Catalog products the applied ingestion created (the export counts them too). */
  ingestedProducts: number;
}

export interface Sizes {
  listings: number;
  lines: number;
  uploadMiB: number;
  deliveries: number;
}

export interface Files {
  products: string;
  inventory: string;
  /** The oversized upload (a CSV just over the limit); null when that workload is not run. */
  big: string | null;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** fetch bounded by the deadline (Cutoff when it passes). */
export async function call(deadline: number, url: string, init: RequestInit = {}): Promise<Response> {
  const left = deadline - performance.now();
  if (left <= 0) throw new Cutoff('deadline passed');
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(Math.ceil(left)) });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError') throw new Cutoff('deadline passed');
    throw error;
  }
}

/** Why a fetch failed: undici's TypeError carries the socket error as its cause. */
export function failure(error: unknown): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  return e.cause ? `${e.message}: ${e.cause.code ?? e.cause.message ?? ''}` : e.message;
}

/**
 * A status poll (GET) that survives a failed request: a stalled service can close the connection of a request
 * it did not read in time (Node's headersTimeout), and a client would poll again. Failures are counted in `failed`.
 */
export async function poll(deadline: number, url: string, init: RequestInit, failed: string[]): Promise<Response> {
  for (;;) {
    try {
      return await call(deadline, url, init);
    } catch (error) {
      if (error instanceof Cutoff || !(error instanceof TypeError)) throw error;
      failed.push(failure(error));
      await sleep(100);
    }
  }
}

export const failedText = (failed: string[]) => (failed.length === 0 ? '' : `; ${failed.length} status polls failed (${[...new Set(failed)].join(', ')})`);

export async function json(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new Error(`${what} answered ${res.status}: ${text.slice(0, 300)}`);
  return text === '' ? {} : (JSON.parse(text) as unknown);
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

/** A listing as a channel pushes it: 2 variants (red, blue) with a price and a color. */
function ingestionListing(i: number) {
  const variant = (color: string, units: string) => ({
    sku: `ING-${String(i).padStart(5, '0')}-${color.toUpperCase()}`,
    price: { currencyCode: 'USD', units, nanos: 500000000 },
    attributes: [{ id: 'color', textValue: color }],
  });
  return {
    id: `ING-${String(i).padStart(5, '0')}`,
    productTypeId: 'mug',
    pivotAttributes: ['color'],
    attributes: [{ id: 'title', textValue: `Bench mug ${i}` }],
    variants: [variant('red', String(10 + (i % 20))), variant('blue', String(11 + (i % 20)))],
  };
}

/**
 * Ingestion, auto-applied: begin (autoApplyIngestionPlan), `listings` request calls, end, then GET the session
 * until APPLIED. Two phases: the push (each request is foreground API work) and the background plan + apply
 * from end to APPLIED (polled through the session list, which carries no plan, every 100 ms; the session with
 * its plan is read once at the end).
 */
export async function ingestion(ctx: StallContext, sizes: Sizes, measure: Measure): Promise<boolean> {
  const n = sizes.listings;
  const headers = bearer(ctx.channelToken);
  const size = `${n.toLocaleString('en-US')} listings × 2 variants`;
  await json(
    await fetch(`${ctx.base}/v2/storefront/listing/ingestion/begin`, { method: 'POST', headers, body: JSON.stringify({ expectedNumListings: n, autoApplyIngestionPlan: true }) }),
    'ingestion begin',
  );
  // BeginIngestion answers {} (the production message): the session is the account's newest.
  const newest = (await json(
    await fetch(`${ctx.base}/admin/accounts/${ctx.accountId}/ingestions?pageSize=1`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
    'GET ingestions',
  )) as { results: { ingestionId: number }[] };
  const begun = { ingestionId: String(newest.results[0]?.ingestionId ?? '') };
  const spec = { size, units: n, unit: 'listings/s' };
  const push = await measure({ ...spec, key: 'ingestion-push', title: 'ingestion: pushing the listings (request calls)' }, async (deadline) => {
    const started = performance.now();
    for (let i = 0; i < n; i++) {
      await json(await call(deadline, `${ctx.base}/v2/storefront/listing/ingestion/request`, { method: 'POST', headers, body: JSON.stringify(ingestionListing(i)) }), `ingestion request ${i}`);
    }
    const seconds = (performance.now() - started) / 1000;
    return { seconds, detail: `${n} request calls, one at a time` };
  });
  if (push.cutoff || push.failed) return push.cutoff;
  const apply = await measure({ ...spec, key: 'ingestion-apply', title: 'ingestion: plan + auto-apply (end → APPLIED)' }, async (deadline) => {
    const started = performance.now();
    await json(await call(deadline, `${ctx.base}/v2/storefront/listing/ingestion/end`, { method: 'POST', headers, body: JSON.stringify({ actualNumListings: n }) }), 'ingestion end');
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const list = `${ctx.base}/admin/accounts/${ctx.accountId}/ingestions?pageSize=1`;
    let last = '';
    const failed: string[] = [];
    const cutoffWith = (error: unknown) => (error instanceof Cutoff ? new Cutoff(`the session was ${last || 'not read yet'}${failedText(failed)}`) : error);
    for (;;) {
      const page = (await json(await poll(deadline, list, { headers: admin }, failed).catch((e: unknown) => Promise.reject(cutoffWith(e))), 'GET ingestions')) as {
        results: { ingestionId: number; status: string; error: string | null }[];
      };
      const session = page.results.find((s) => String(s.ingestionId) === begun.ingestionId);
      if (!session) throw new Error(`ingestion ${begun.ingestionId} is not the newest session`);
      if (session.status !== last) process.stdout.write(`  ingestion ${session.status} at ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
      last = session.status;
      if (session.status === 'APPLIED') break;
      if (session.status === 'FAILED' || session.status === 'DISCARDED' || session.error) throw new Error(`ingestion ${session.status}: ${session.error ?? ''}`);
      await sleep(100);
    }
    const seconds = (performance.now() - started) / 1000;
    const detail = (await json(await poll(deadline, `${ctx.base}/admin/accounts/${ctx.accountId}/ingestions/${begun.ingestionId}`, { headers: admin }, failed), 'GET ingestion')) as {
      summary: { listingsToCreate: number; productsToCreate: number; conflicts: number } | null;
    };
    const s = detail.summary;
    ctx.ingestedProducts += s?.productsToCreate ?? 0;
    return { seconds, detail: s ? `APPLIED: ${s.listingsToCreate} listings created, ${s.productsToCreate} products created, ${s.conflicts} conflicts${failedText(failed)}` : `APPLIED${failedText(failed)}` };
  });
  return apply.cutoff;
}

/** Trigger calls in flight at once: enough that the deliveries, not the triggers, set the pace. */
const TRIGGER_CONCURRENCY = 8;

/**
 * Callback deliveries: `n` POST …/storefronts/{id}/ingestion-request calls (8 at a time), each queuing one
 * signed delivery to the local receiver (partner-sim, in the benchmark's process, on loopback); the phase
 * ends when all have arrived. deliveries/s = n / (first trigger → last arrival).
 */
export async function callbacks(ctx: StallContext, n: number, measure: Measure): Promise<boolean> {
  const url = `${ctx.base}/admin/accounts/${ctx.accountId}/storefronts/${ctx.callbackStorefrontId}/ingestion-request`;
  const spec = { key: 'callbacks', title: 'callback deliveries (ingestion-request)', size: `${n.toLocaleString('en-US')} deliveries`, units: n, unit: 'deliveries/s' };
  const result = await measure(spec, async (deadline) => {
    const started = performance.now();
    const ids: string[] = [];
    let next = 0;
    const sender = async () => {
      for (let i = next++; i < n; i = next++) {
        const res = await call(deadline, url, { method: 'POST', headers: bearer(ADMIN_TOKEN), body: JSON.stringify({ skus: [`CB-${i}`] }) });
        ids.push(((await json(res, 'POST ingestion-request')) as { deliveryId: string }).deliveryId);
      }
    };
    await Promise.all(Array.from({ length: TRIGGER_CONCURRENCY }, sender));
    const triggeredSeconds = (performance.now() - started) / 1000;
    while (ids.some((id) => !ctx.arrivals.has(id))) {
      if (performance.now() > deadline) throw new Cutoff(`only ${ids.filter((id) => ctx.arrivals.has(id)).length} of ${n} arrived`);
      await sleep(10);
    }
    const last = Math.max(...ids.map((id) => ctx.arrivals.get(id)!));
    const rejected = ctx.sim.calls.filter((c) => !c.verified).length;
    return { seconds: (last - started) / 1000, detail: `triggers sent in ${triggeredSeconds.toFixed(1)} s; ${rejected} rejected by the receiver` };
  });
  return result.cutoff;
}
