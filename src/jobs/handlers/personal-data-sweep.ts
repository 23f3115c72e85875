import type { Deps } from '../../deps.js';
import { sweepPersonalData } from '../../domain/personal-data/retention-sweep.js';

export const PERSONAL_DATA_SWEEP = 'personal-data.retention-sweep';

/** The recurring run (at start and hourly): redacts orders past their account's retention and pending erasures. */
export async function runPersonalDataSweep(deps: Deps): Promise<void> {
  const relieveWal = deps.db.relieveWal;
  const result = await sweepPersonalData(deps.db.db, deps.clock.now(), relieveWal ? { afterBatch: relieveWal } : {});
  if (result.expired + result.erased > 0) deps.log.info(result, "redacted buyers' personal data of closed orders");
}
