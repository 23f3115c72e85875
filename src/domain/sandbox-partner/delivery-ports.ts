import { createCallbackSender } from '../callbacks/send.js';
import type { DeliveryPorts } from '../callbacks/ports.js';
import type { CallbackSender } from '../callbacks/transport.js';
import { withPartnerSimulator } from './sender.js';
import type { SimulatorPorts } from './simulator.js';

const productionSender = createCallbackSender();

/**
 * The ports a callback delivery attempt takes (src/domain/callbacks/ports.ts), with the sender in use: the
 * process's own when it carries one (tests set deps.callbackSender), else the production one; either way
 * behind the sandbox's partner simulator, which answers its own host in-process and passes every other call
 * on (address.ts). Built here, above the callbacks area, because the simulator builds on that area. Called
 * for each attempt, so a sender a test swaps in is used from the next attempt on.
 */
export function deliveryPortsOf(deps: SimulatorPorts & Omit<DeliveryPorts, 'send'> & { callbackSender?: CallbackSender }): DeliveryPorts {
  return { db: deps.db, clock: deps.clock, signer: deps.signer, config: deps.config, send: withPartnerSimulator(deps, deps.callbackSender ?? productionSender) };
}
