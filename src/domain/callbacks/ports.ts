import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import type { Signer } from '../../lib/signer.js';
import type { CallbackSender } from './transport.js';

/**
 * What an attempt to deliver a callback uses of the process. `send` is the sender itself, chosen above this
 * area (src/domain/sandbox-partner/delivery-ports.ts): the production sender or a test's, behind the
 * sandbox's partner simulator, which builds on this area and so is never imported from it.
 */
export interface DeliveryPorts {
  db: DbHandle;
  clock: Clock;
  signer: Signer;
  config: Pick<Config, 'callbacksAllowPrivate'>;
  send: CallbackSender;
}
