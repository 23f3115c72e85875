import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { listJobs } from '../../../jobs/admin.js';
import { decodeV2Cursor, encodeCursor } from '../../pagination.js';
import { ADMIN_ROUTE_CONFIG, TAGS } from '../schemas.js';
import { JobList, ListJobsQuery, jobResponses } from './schemas.js';
import { toJobView } from './view.js';

const CURSOR_ROUTE = 'GET /admin/jobs';

interface CursorState {
  i: number;
}

const isCursorState = (v: unknown): v is CursorState =>
  typeof v === 'object' && v !== null && Number.isSafeInteger((v as CursorState).i);

export function registerListJobs(app: App, deps: Deps) {
  app.get(
    '/admin/jobs',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'List background jobs',
        description:
          'Jobs newest first, optionally only one status, type or account. Page with `cursor`/`nextCursor` ' +
          '("" on the last page), repeating the same filters.',
        querystring: ListJobsQuery,
        response: jobResponses({ 200: JobList }, [400, 401]),
      },
    },
    async (request) => {
      const q = request.query;
      const cursor = decodeV2Cursor(deps.signer, CURSOR_ROUTE, q.cursor, isCursorState);
      const page = await listJobs(
        deps.db.db,
        {
          ...(q.status ? { status: q.status } : {}),
          ...(q.type ? { type: q.type } : {}),
          ...(q.accountId !== undefined ? { accountId: q.accountId } : {}),
        },
        cursor?.i ?? null,
        q.pageSize ?? 50,
      );
      return {
        results: page.jobs.map(toJobView),
        nextCursor: page.nextAfterId === null ? '' : encodeCursor(deps.signer, CURSOR_ROUTE, { i: page.nextAfterId } satisfies CursorState),
      };
    },
  );
}
