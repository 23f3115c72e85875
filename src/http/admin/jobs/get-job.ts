import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { getJob } from '../../../jobs/admin.js';
import { ADMIN_ROUTE_CONFIG, TAGS } from '../schemas.js';
import { JobDetailView, JobParams, jobResponses } from './schemas.js';
import { toJobDetailView } from './view.js';

export function registerGetJob(app: App, deps: Deps) {
  app.get(
    '/admin/jobs/:jobId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Get a background job',
        description: 'The job with the log of its finished attempts (worker, outcome, error, times).',
        params: JobParams,
        response: jobResponses({ 200: JobDetailView }, [400, 401, 404]),
      },
    },
    async (request) => toJobDetailView(await getJob(deps.db.db, request.params.jobId)),
  );
}
