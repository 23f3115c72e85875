/**
 * The load generator, run by bench/run.ts in a child process of its own so the client never competes with
 * the server for the server's event loop. It receives one LoadJob over IPC, runs autocannon, and sends
 * back a LoadResult.
 */
import autocannon, { type RequestData, type Result } from 'autocannon';

export interface LoadJob {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Rotated request by request: one path per request, or one body per request (same path). */
  paths: string[];
  bodies: string[] | null;
  connections: number;
  durationSeconds: number;
  /**
   * Every "[<id>]" in a body becomes an id unique to that request (bench/orders.ts: one channelOrderId per
   * created order, although every connection walks the same body list). Not autocannon's own idReplacement:
   * that one declares a Content-Length 27 bytes per id longer than the 24-byte ids it writes, so the
   * server waits for bytes that never come.
   */
  uniqueIds?: boolean;
  /**
   * Bodies taken in turn across connections: each request takes the next body, whichever connection sends it,
   * so the requests in flight name different bodies (bench/run.ts's update batches: parallel writes to
   * different stock rows, as in its database reference). Without it every connection walks the same list
   * from the start, and the connections send the same body at the same time.
   */
  bodiesInTurn?: boolean;
}

export interface LoadResult {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

// Unique across load processes too: the pid and start time prefix a per-process counter.
const idPrefix = `${process.pid.toString(36)}${Date.now().toString(36)}`;
let idCounter = 0;
function withUniqueId<R extends { body?: string }>(request: R): R {
  return { ...request, body: request.body?.replace(/\[<id>\]/g, () => `${idPrefix}-${(idCounter++).toString(36)}`) };
}

export async function runLoad(job: LoadJob): Promise<LoadResult> {
  if (job.bodiesInTurn && job.bodies) return runLoadWithBodiesInTurn(job, job.bodies);
  // Every request takes the next SKU (or batch), so the server does not answer one hot row only. The
  // requests are listed up front: autocannon builds each once, which keeps the client cheap (a
  // setupRequest function would rebuild every request and make the client the bottleneck).
  const count = Math.max(job.paths.length, job.bodies?.length ?? 0);
  const requests = Array.from({ length: count }, (_, i) => ({
    method: job.method,
    headers: job.headers,
    path: job.paths[i % job.paths.length]!,
    ...(job.bodies ? { body: job.bodies[i % job.bodies.length]! } : {}),
    ...(job.uniqueIds ? { setupRequest: withUniqueId } : {}),
  }));
  return resultOf(await autocannon({ url: job.url, connections: job.connections, duration: job.durationSeconds, requests }));
}

/** One request built anew each time (setupRequest): the next body of the list, for whichever connection sends it. */
async function runLoadWithBodiesInTurn(job: LoadJob, bodies: string[]): Promise<LoadResult> {
  let next = 0;
  const request = {
    method: job.method,
    headers: job.headers,
    path: job.paths[0]!,
    setupRequest: (r: RequestData): RequestData => ({ ...r, body: bodies[next++ % bodies.length]! }),
  };
  return resultOf(await autocannon({ url: job.url, connections: job.connections, duration: job.durationSeconds, requests: [request] }));
}

function resultOf(result: Result): LoadResult {
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

// Child-process entry: one job in, one result out, then exit.
if (process.send) {
  process.once('message', (job: LoadJob) => {
    runLoad(job).then(
      (result) => process.send!({ ok: true, result }, () => process.exit(0)),
      (error: unknown) => process.send!({ ok: false, error: String(error) }, () => process.exit(1)),
    );
  });
}
