import type { JobDetail } from '../../../jobs/admin.js';
import type { Job } from '../../../jobs/types.js';

/** The operator shape: jobId rather than id; the rest is the Job as is. */
export function toJobView(job: Job) {
  const { id, ...rest } = job;
  return { jobId: id, ...rest };
}

export function toJobDetailView(job: JobDetail) {
  return { ...toJobView(job), attemptLog: job.attemptLog };
}
