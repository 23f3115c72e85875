import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { retryDeadJob } from '../../../jobs/admin.js';
import { ADMIN_ROUTE_CONFIG, TAGS } from '../schemas.js';
import { JobDetailView, JobParams, jobResponses } from './schemas.js';
import { toJobDetailView } from './view.js';

export function registerRetryJob(app: App, deps: Deps) {
  app.post(
    '/admin/jobs/:jobId/retry',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Run a DEAD job again',
        description:
          'Puts a DEAD job back to PENDING, due now, with a fresh attempt budget (attempts 0). The attempt log ' +
          'keeps its history. No body.',
        params: JobParams,
        response: jobResponses({ 200: JobDetailView }, [400, 401, 404, 409], 'the job is not DEAD (PENDING, RUNNING or SUCCEEDED)'),
      },
    },
    async (request) => toJobDetailView(await retryDeadJob(deps.db.db, request.params.jobId, deps.clock.now())),
  );
}
