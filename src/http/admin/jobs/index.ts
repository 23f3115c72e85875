import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerGetJob } from './get-job.js';
import { registerListJobs } from './list-jobs.js';
import { registerRetryJob } from './retry-job.js';

/** Operator view of the background jobs (docs/operators/jobs.md). */
export function registerAdminJobRoutes(app: App, deps: Deps): void {
  registerListJobs(app, deps);
  registerGetJob(app, deps);
  registerRetryJob(app, deps);
}
