import { Type, type TSchema } from '@sinclair/typebox';
import { JOB_STATUSES, type JobStatus } from '../../../jobs/types.js';
import { Nullable, Timestamp, V1Error } from '../../schemas/common.js';
import { Id, adminResponses } from '../schemas.js';

export const JobParams = Type.Object({ jobId: Id('job id') });

// `enum` rather than a union of literals so a bad value is answered with the list of allowed ones.
export const JobStatusSchema = Type.Unsafe<JobStatus>({
  type: 'string',
  enum: [...JOB_STATUSES],
  description:
    'PENDING (waiting for run_at), RUNNING (leased by a worker), SUCCEEDED, DEAD (failed maxAttempts times; ' +
    'POST …/retry runs it again)',
  examples: ['DEAD'],
});

const EXAMPLE_JOB = {
  jobId: 42,
  accountId: null,
  type: 'idempotency.sweep',
  payload: {},
  status: 'DEAD',
  attempts: 3,
  maxAttempts: 3,
  runAt: '2026-11-21T22:13:08.123Z',
  leaseOwner: null,
  leaseExpiresAt: null,
  lastError: 'Error: connection refused',
  dedupeKey: 'schedule:idempotency.sweep',
  createdAt: '2026-11-21T22:10:08.123Z',
  updatedAt: '2026-11-21T22:14:09.456Z',
  finishedAt: '2026-11-21T22:14:09.456Z',
};

const jobProperties = {
  jobId: Type.Integer(),
  accountId: Nullable(Type.Integer({ description: 'null for service jobs' })),
  type: Type.String({ description: 'job type, e.g. idempotency.sweep' }),
  payload: Type.Unknown({ description: 'the JSON the job was enqueued with' }),
  status: JobStatusSchema,
  attempts: Type.Integer({ description: 'attempts started (a retry from DEAD starts again at 0)' }),
  maxAttempts: Type.Integer(),
  runAt: Timestamp,
  leaseOwner: Nullable(Type.String({ description: 'the worker running it (RUNNING only)' })),
  leaseExpiresAt: Nullable(Timestamp),
  lastError: Nullable(Type.String({ description: 'error of the latest failed attempt' })),
  dedupeKey: Nullable(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  finishedAt: Nullable(Timestamp),
};

export const JobView = Type.Object(jobProperties, { examples: [EXAMPLE_JOB] });

export const JobAttemptView = Type.Object({
  attempt: Type.Integer(),
  worker: Type.String(),
  outcome: Type.Unsafe<'SUCCEEDED' | 'FAILED'>({ type: 'string', enum: ['SUCCEEDED', 'FAILED'] }),
  error: Nullable(Type.String()),
  startedAt: Timestamp,
  finishedAt: Timestamp,
});

export const JobDetailView = Type.Object(
  { ...jobProperties, attemptLog: Type.Array(JobAttemptView, { description: 'finished attempts, oldest first' }) },
  {
    examples: [
      {
        ...EXAMPLE_JOB,
        attemptLog: [
          {
            attempt: 1,
            worker: 'host-1:4242:a1b2c3',
            outcome: 'FAILED',
            error: 'Error: connection refused',
            startedAt: '2026-11-21T22:13:08.200Z',
            finishedAt: '2026-11-21T22:13:08.900Z',
          },
        ],
      },
    ],
  },
);

export const ListJobsQuery = Type.Object({
  status: Type.Optional(JobStatusSchema),
  type: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'exact job type' })),
  accountId: Type.Optional(Id('only jobs of this account')),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50, description: 'jobs per page (1 to 500)' })),
  cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page; repeat the same filters' })),
});

export const JobList = Type.Object(
  {
    results: Type.Array(JobView),
    nextCursor: Type.String({ description: 'pass as cursor for the next page; "" on the last page' }),
  },
  { examples: [{ results: [EXAMPLE_JOB], nextCursor: '' }] },
);

/** adminResponses with this area's own 404 wording. */
export function jobResponses(success: Record<number, TSchema>, errors: (400 | 401 | 404 | 409)[], conflicts?: string) {
  const out = adminResponses(success, errors, conflicts);
  if (errors.includes(404)) out[404] = Type.Ref(V1Error, { description: 'no job with this id' });
  return out;
}
