import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { getJob, listJobs, retryDeadJob } from '../../../jobs/admin.js';
import { JOB_STATUSES, type JobStatus } from '../../../jobs/types.js';
import { Badge, Pager, PostForm, Select, Table, firstLine, formAction, formatTs, stateTone } from '../components.js';
import { Layout } from '../layout.js';
import { idParam, queryEnum, queryId, queryText } from '../params.js';
import { pageContext, sendHtml } from '../render.js';
import { operatorOf } from '../session.js';
import { ATTEMPT_OUTCOME_WORDS, JOB_STATUS_WORDS, jobTypeChoices, jobTypeWords } from './words.js';

const ACTIVE = '/console/operator/jobs';
const PAGE_SIZE = 50;

const STATUS_CHOICES: [string, string][] = [['', 'Any status'], ...JOB_STATUSES.map((s): [string, string] => [s, JOB_STATUS_WORDS[s]])];

function JobStatusBadge({ status }: { status: JobStatus }) {
  return <Badge tone={stateTone(status)} text={JOB_STATUS_WORDS[status]} />;
}

/** Why the list is empty, in the filter's words. */
function emptyText(status: JobStatus | undefined, type: string, paged: boolean): string {
  if (paged) return 'No more jobs.';
  if (!status && !type) return 'No background jobs yet. Reports, imports, ingestion plans and callbacks to partner apps run as jobs and show here.';
  if (status === 'DEAD' && !type) return 'No dead jobs: every job either finished or is still being retried.';
  const what = [status ? `status "${JOB_STATUS_WORDS[status]}"` : '', type ? `type "${jobTypeWords(type)}"` : ''].filter(Boolean).join(' and ');
  return `No jobs with ${what}. Jobs that are done are cleaned up after a while.`;
}

function RetryButton({ jobId, csrfToken }: { jobId: number; csrfToken: string }) {
  return (
    <PostForm action={`${ACTIVE}/${jobId}/retry`} csrfToken={csrfToken}>
      <button type="submit" class="secondary">
        Retry
      </button>
    </PostForm>
  );
}

/**
 * Background jobs (GET /admin/jobs, GET /admin/jobs/{id}, POST /admin/jobs/{id}/retry): newest first,
 * filtered by status and type, keyset paged by id; a DEAD job can be run again.
 */
export function registerOperatorJobs(scope: FastifyInstance, deps: Deps): void {
  scope.get('/operator/jobs', { schema: { hide: true } }, async (request, reply) => {
    const user = operatorOf(request, reply);
    if (!user) return reply;
    const status = queryEnum(request, 'status', JOB_STATUSES);
    const type = queryText(request, 'type').trim();
    // The service's types, plus one asked for that it no longer runs (its old jobs can still be listed).
    const typeChoices = jobTypeChoices();
    const typeOptions: [string, string][] = [['', 'All types'], ...typeChoices, ...(type && !typeChoices.some(([t]) => t === type) ? [[type, type] as [string, string]] : [])];
    const after = queryId(request, 'after') ?? null;
    const page = await listJobs(deps.db.db, { ...(status ? { status } : {}), ...(type ? { type } : {}) }, after, PAGE_SIZE);
    const ctx = pageContext(request, reply, user, ACTIVE);
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Jobs">
        <h1>Background jobs</h1>
        <p>
          <a href={`${ACTIVE}?status=DEAD`}>Dead jobs</a> · <a href={ACTIVE}>All jobs</a>
        </p>
        <form method="get" action={ACTIVE} class="inline">
          <Select label="Status" name="status" options={STATUS_CHOICES} value={status ?? ''} />
          <Select label="Type" name="type" options={typeOptions} value={type} />
          <button type="submit" class="secondary">
            Filter
          </button>
        </form>
        {page.jobs.length === 0 ? (
          <p class="empty" safe>
            {emptyText(status, type, after !== null)}
          </p>
        ) : (
          <div class="rows-stack">
            <Table caption="Background jobs" head={['Id', 'Type', 'Account', 'Status', 'Attempts', 'Run at', 'Last error', '']}>
              {page.jobs.map((j) => (
                <tr>
                  <td data-label="Job">
                    <a href={`${ACTIVE}/${j.id}`} safe>
                      {String(j.id)}
                    </a>
                  </td>
                  <td safe>{jobTypeWords(j.type)}</td>
                  <td data-label="Account" safe>
                    {j.accountId === null ? 'service' : String(j.accountId)}
                  </td>
                  <td>
                    <JobStatusBadge status={j.status} />
                  </td>
                  <td class="num" data-label="Attempts" safe>{`${j.attempts}/${j.maxAttempts}`}</td>
                  <td data-label="Run at" safe>
                    {formatTs(j.runAt)}
                  </td>
                  <td data-label="Last error" safe>
                    {firstLine(j.lastError)}
                  </td>
                  <td>{j.status === 'DEAD' ? <RetryButton jobId={j.id} csrfToken={ctx.csrfToken} /> : ''}</td>
                </tr>
              ))}
            </Table>
          </div>
        )}
        {page.jobs.length === 0 ? '' : <Pager base={ACTIVE} params={{ status, type }} cursorName="after" next={page.nextAfterId === null ? null : String(page.nextAfterId)} />}
      </Layout>,
    );
  });

  scope.get('/operator/jobs/:jobId', { schema: { hide: true } }, async (request, reply) => {
    const user = operatorOf(request, reply);
    if (!user) return reply;
    const job = await getJob(deps.db.db, idParam(request, 'jobId'));
    const ctx = pageContext(request, reply, user, ACTIVE);
    return sendHtml(
      reply,
      <Layout ctx={ctx} title={`Job ${job.id}`}>
        <p>
          <a href={ACTIVE}>← Jobs</a>
        </p>
        <h1 safe>{`Job ${job.id}: ${jobTypeWords(job.type)}`}</h1>
        <p>
          <JobStatusBadge status={job.status} />
        </p>
        {job.status === 'DEAD' ? <RetryButton jobId={job.id} csrfToken={ctx.csrfToken} /> : ''}
        <dl class="facts">
          <dt>Type</dt>
          <dd>
            <code safe>{job.type}</code>
          </dd>
          <dt>Account</dt>
          <dd safe>{job.accountId === null ? 'service' : String(job.accountId)}</dd>
          <dt>Attempts</dt>
          <dd safe>{`${job.attempts} of ${job.maxAttempts}`}</dd>
          <dt>Run at</dt>
          <dd safe>{formatTs(job.runAt)}</dd>
          <dt>Created</dt>
          <dd safe>{formatTs(job.createdAt)}</dd>
          <dt>Finished</dt>
          <dd safe>{formatTs(job.finishedAt)}</dd>
          <dt>Dedupe key</dt>
          <dd safe>{job.dedupeKey ?? '–'}</dd>
        </dl>
        <h2>Payload</h2>
        <pre safe>{JSON.stringify(job.payload, null, 2)}</pre>
        {job.lastError ? (
          <>
            <h2>Last error</h2>
            <pre safe>{job.lastError}</pre>
          </>
        ) : (
          ''
        )}
        <h2>Attempts</h2>
        {job.attemptLog.length === 0 ? (
          <p class="empty">No attempt logged yet: no worker has picked this job up.</p>
        ) : (
          <Table caption="Attempt log" head={['Attempt', 'Worker', 'Outcome', 'Started', 'Finished', 'Error']}>
            {job.attemptLog.map((a) => (
              <tr>
                <td class="num" safe>{String(a.attempt)}</td>
                <td safe>{a.worker}</td>
                <td>
                  <Badge tone={a.outcome === 'SUCCEEDED' ? 'ok' : 'bad'} text={ATTEMPT_OUTCOME_WORDS[a.outcome] ?? a.outcome} />
                </td>
                <td safe>{formatTs(a.startedAt)}</td>
                <td safe>{formatTs(a.finishedAt)}</td>
                <td safe>{firstLine(a.error)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Layout>,
    );
  });

  scope.post('/operator/jobs/:jobId/retry', { schema: { hide: true } }, async (request, reply) => {
    if (!operatorOf(request, reply)) return reply;
    const jobId = idParam(request, 'jobId');
    return formAction(deps, request, reply, `${ACTIVE}/${jobId}`, `Job ${jobId} is waiting again and runs now.`, async () => {
      await retryDeadJob(deps.db.db, jobId, deps.clock.now());
    });
  });
}
