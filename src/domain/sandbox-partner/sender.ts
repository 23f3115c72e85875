import { DELIVERY_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signCallback } from '../callbacks/signing.js';
import { describeFailure } from '../callbacks/send.js';
import type { CallbackOutcome, CallbackRequest, CallbackSendOptions, CallbackSender } from '../callbacks/transport.js';
import { simulatorTarget } from './address.js';
import { answerSimulatedCall, type SimulatorAnswer, type SimulatorPorts } from './simulator.js';

/**
 * The callback sender with the sandbox's partner simulator in front (address.ts says why in-process): a call
 * to the simulator's host is signed exactly as the production sender signs it (the same headers over the
 * same path and bytes) and answered by the simulator in this process; every other call goes to `next`
 * unchanged, under the usual target rules. Like the production sender it never throws for a partner-side
 * failure: what the simulator answered becomes the attempt's status and body in the delivery log.
 */
export function withPartnerSimulator(deps: SimulatorPorts, next: CallbackSender): CallbackSender {
  return async (request: CallbackRequest, options: CallbackSendOptions): Promise<CallbackOutcome> => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return next(request, options);
    }
    const target = simulatorTarget(url);
    if (!target) return next(request, options);
    const started = performance.now();
    const pathWithQuery = `${url.pathname}${url.search}`;
    const signed = signCallback(request.signingSecrets, options.now, request.method, pathWithQuery, request.body);
    let answer: SimulatorAnswer;
    try {
      answer = await answerSimulatedCall(deps, {
        appId: target.appId,
        path: target.path,
        method: request.method,
        pathWithQuery,
        headers: {
          'x-service-timestamp': signed[TIMESTAMP_HEADER],
          'x-service-signature': signed[SIGNATURE_HEADER],
          [DELIVERY_ID_HEADER.toLowerCase()]: request.deliveryId,
        },
        rawBody: request.body,
      });
    } catch (error) {
      // The simulator's own database work failed: a failed attempt like a partner's 5xx, retried on schedule.
      const message = error instanceof Error ? error.message : String(error);
      const latencyMs = Math.round(performance.now() - started);
      return { ok: false, status: null, latencyMs, body: '', error: `the partner simulator failed: ${message}`.slice(0, 1000), retryAfterSeconds: null, refused: false };
    }
    const body = JSON.stringify(answer.body).slice(0, options.maxResponseBytes);
    const latencyMs = Math.round(performance.now() - started);
    if (answer.status === 200) return { ok: true, status: 200, latencyMs, body, error: null, retryAfterSeconds: null, refused: false };
    return { ok: false, status: answer.status, latencyMs, body, error: describeFailure(answer.status, body), retryAfterSeconds: null, refused: false };
  };
}
