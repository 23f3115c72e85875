/**
 * Where the sandbox's simulated partners "live". Why this design (issue 24 item 10):
 *
 * The simulator runs inside the service and is reached WITHOUT the network: the callback sender hands every
 * call for this host to the simulator in the same process (sender.ts), after signing it exactly as the
 * production sender does. So:
 * - no exception to the callback target rules (src/domain/accounts/target-safety.ts) is needed: a seller,
 *   partner or operator can still never point an app at loopback or private addresses, and the simulator
 *   itself sends nothing, so it cannot relay anything anywhere;
 * - it works whatever address or port the server listens on, behind a proxy, in a separate worker process,
 *   and before the server was ever started.
 *
 * The host is under `.invalid`, a name reserved never to resolve (RFC 2606): were the URL ever tried over the
 * network it would fail, never reach someone else's machine. It passes the registration rules as any https
 * URL does, so an operator can replace it with a real partner's URL through PATCH /admin/apps/{appId}.
 */
export const SIMULATOR_HOST = 'partner-simulator.invalid';

/** The callback base URL of a simulated app: the app id tells the simulator whose signing secret to verify with. */
export function simulatorBaseUrl(appId: number): string {
  return `https://${SIMULATOR_HOST}/apps/${appId}`;
}

/** The app id and the callback path of a call to the simulator; null when the URL is not the simulator's. */
export function simulatorTarget(url: URL): { appId: number; path: string } | null {
  if (url.hostname.toLowerCase() !== SIMULATOR_HOST) return null;
  const match = /^\/apps\/(\d{1,15})(\/.*)?$/.exec(url.pathname);
  if (!match) return { appId: 0, path: url.pathname };
  return { appId: Number(match[1]), path: match[2] ?? '/' };
}
