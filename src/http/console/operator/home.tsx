import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { databaseSize, formatBytes } from '../../../db/size.js';
import { operatorOverview, type OrdersOnDay } from '../../../domain/operations/overview.js';
import { Table } from '../components.js';
import { Layout } from '../layout.js';
import { pageContext, sendHtml } from '../render.js';
import { operatorOf } from '../session.js';
import { ageWords, countWords } from './words.js';

const BASE = '/console/operator';

/** One figure of the overview: a number that links to the list it counts, and what it means. */
function Figure({ href, label, value, note, tone }: { href?: string; label: string; value: string; note: string; tone?: 'bad' | 'warn' }) {
  return (
    <section class={tone ? `card figure ${tone}` : 'card figure'}>
      <h2 safe>{label}</h2>
      {href ? (
        <a class="count" href={href} safe>
          {value}
        </a>
      ) : (
        <span class="count" safe>
          {value}
        </span>
      )}
      <p class="muted" safe>
        {note}
      </p>
    </section>
  );
}

function OrdersPerDay({ days }: { days: OrdersOnDay[] }) {
  const total = days.reduce((sum, d) => sum + d.orders, 0);
  return (
    <>
      <h2>Orders per day</h2>
      {total === 0 ? (
        <p class="empty">No orders in the last 7 days. Orders from every seller's channels and stores are counted here as they arrive.</p>
      ) : (
        <div class="narrow-table">
          <p class="muted" safe>{`${countWords(total)} order${total === 1 ? '' : 's'} in the last 7 days: placed each day (UTC, by order date), every account together.`}</p>
          <Table caption="Orders per day, last 7 days" head={['Day', 'Orders']}>
            {[...days].reverse().map((d) => (
              <tr>
                <td safe>{new Date(`${d.day}T00:00:00Z`).toLocaleDateString('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' })}</td>
                <td class="num" safe>
                  {countWords(d.orders)}
                </td>
              </tr>
            ))}
          </Table>
        </div>
      )}
    </>
  );
}

/** The platform at a glance: every figure is a capped index read (src/domain/operations/overview.ts). */
export function registerOperatorHome(scope: FastifyInstance, deps: Deps): void {
  scope.get('/operator', { schema: { hide: true } }, async (request, reply) => {
    const user = operatorOf(request, reply);
    if (!user) return reply;
    const now = deps.clock.now();
    const [overview, size] = await Promise.all([operatorOverview(deps.db.db, now), databaseSize(deps.db)]);
    const { jobs } = overview;
    const waited = jobs.oldestReadySince === null ? null : (now.getTime() - Date.parse(jobs.oldestReadySince)) / 1000;
    const ctx = pageContext(request, reply, user, BASE);
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Overview">
        <h1>Platform overview</h1>
        {overview.accounts === 0 ? (
          <p class="empty">
            No seller accounts yet. <a href={`${BASE}/accounts`}>Create one on the Accounts page</a>, or run <code>npm run cli -- sandbox</code> for a sandbox
            account with sample data.
          </p>
        ) : (
          ''
        )}
        <div class="cards">
          <Figure href={`${BASE}/accounts`} label="Seller accounts" value={countWords(overview.accounts)} note="Every seller account on this service." />
          <Figure
            href={`${BASE}/jobs?status=PENDING`}
            label="Jobs waiting"
            value={countWords(jobs.ready)}
            tone={waited !== null && waited > 300 ? 'warn' : undefined}
            note={`${waited === null ? 'None is due now' : `Oldest waiting ${ageWords(waited)}`}; ${countWords(jobs.delayed)} scheduled for later, ${countWords(jobs.running)} running.`}
          />
          <Figure
            href={`${BASE}/jobs?status=DEAD`}
            label="Dead jobs"
            value={countWords(jobs.dead)}
            tone={jobs.dead > 0 ? 'bad' : undefined}
            note={jobs.dead > 0 ? 'Jobs that failed every attempt: open one to see why, then retry it.' : 'No job has given up.'}
          />
          <Figure
            href={`${BASE}/deliveries?state=DEAD`}
            label="Dead callback deliveries"
            value={countWords(overview.deadDeliveries)}
            tone={overview.deadDeliveries > 0 ? 'bad' : undefined}
            note={overview.deadDeliveries > 0 ? 'Callbacks to partner apps that failed every retry: fix the cause, then replay them.' : 'No callback has given up.'}
          />
          <Figure label="Database size" value={formatBytes(size.bytes)} note={`${size.what}.`} />
        </div>
        <OrdersPerDay days={overview.ordersPerDay} />
      </Layout>,
    );
  });
}
