/**
 * The two processes bench/stall.ts drives: the service (bench/stall-service.ts: `serve` with its inline worker,
 * measuring its own event loop) and the /healthz poller (bench/stall-poller.ts). Both are forked under tsx with
 * an IPC channel; requests carry an id and wait for the reply with that id, within a timeout, so a service whose
 * loop never comes back cannot hang the benchmark.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PollerReply, PollerRequest, PollStats } from './stall-poller.js';
import type { LoopStats, ServiceReply, ServiceRequest } from './stall-service.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

/** Omit over each member of a union. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** Sends `message` with a fresh id and resolves with the reply of the same id, or null after timeoutMs. */
class Rpc<Req extends { id: number }, Rep extends { id: number }> {
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: Rep) => void>();

  constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: Rep) => {
      const resolve = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      resolve?.(reply);
    });
  }

  call(message: WithoutId<Req>, timeoutMs: number): Promise<Rep | null> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve(null);
      }, timeoutMs);
      this.waiting.set(id, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      if (!this.child.connected) {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(null);
        return;
      }
      this.child.send({ ...message, id } as unknown as Req);
    });
  }
}

export interface ServiceProcess {
  base: string;
  pid: number;
  /** Starts a measurement window; false when the service did not answer within timeoutMs. */
  reset(timeoutMs?: number): Promise<boolean>;
  /** The window so far; null when the service did not answer within timeoutMs (its loop is still held). */
  read(timeoutMs: number): Promise<LoopStats | null>;
  /** SIGTERM (graceful close, as an operator stops it), SIGKILL after graceMs. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Forks the service on `port` with `env` (the whole environment of the service: nothing else is inherited but
 * PATH and HOME) and waits for its "listening on" line. Its stdout and stderr are always drained (a full pipe
 * would block the service's log writes); stderr is echoed.
 */
export function startService(env: Record<string, string>, port: number, execArgv: string[] = []): Promise<ServiceProcess> {
  const child = fork(path.join(here, 'stall-service.ts'), [], {
    cwd: root,
    execArgv: ['--import', 'tsx', ...execArgv],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const rpc = new Rpc<ServiceRequest, ServiceReply>(child);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  let output = '';
  const base = `http://127.0.0.1:${port}`;
  const service: ServiceProcess = {
    base,
    pid: child.pid!,
    async reset(timeoutMs = 60_000) {
      return (await rpc.call({ type: 'reset' }, timeoutMs)) !== null;
    },
    async read(timeoutMs) {
      const reply = await rpc.call({ type: 'read' }, timeoutMs);
      return reply?.type === 'read' ? reply.stats : null;
    },
    async stop(graceMs = 15_000) {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void service.stop(1000);
      reject(new Error(`the service did not start within 120 s:\n${output}`));
    }, 120_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (output.length < 100_000) output += chunk.toString();
      if (/listening on http/.test(output)) {
        clearTimeout(timer);
        resolve(service);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (output.length < 100_000) output += chunk.toString();
      process.stderr.write(chunk);
    });
    void exit.then(() => {
      clearTimeout(timer);
      reject(new Error(`the service exited before listening:\n${output}`));
    });
  });
}

export interface Poller {
  start(url: string, intervalMs: number): Promise<void>;
  /** The window's polls; waits up to waitMs for the request in flight (else its age counts as a lower bound). */
  stop(waitMs: number): Promise<PollStats>;
  close(): Promise<void>;
}

export function startPoller(): Poller {
  const child = fork(path.join(here, 'stall-poller.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const rpc = new Rpc<PollerRequest, PollerReply>(child);
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async start(url, intervalMs) {
      // The first call also waits for the child to load (tsx).
      if ((await rpc.call({ type: 'start', url, intervalMs }, 60_000)) === null) throw new Error('the poller did not start');
    },
    async stop(waitMs) {
      const reply = await rpc.call({ type: 'stop', waitMs }, waitMs + 30_000);
      if (reply?.type !== 'stop') throw new Error('the poller did not answer');
      return reply.stats;
    },
    async close() {
      if (child.connected) child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exit;
      clearTimeout(timer);
    },
  };
}
