import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { DEFAULT_ROTATION_OVERLAP_SECONDS, MAX_ROTATION_OVERLAP_SECONDS, listApps, registerApp, rotateAppSecrets } from '../../../domain/accounts/apps.js';
import { APP_KINDS, SCOPES } from '../../../domain/accounts/principal.js';
import { EVENT_TYPES } from '../../../domain/callbacks/nudges.js';
import { describeAppCallbacks, updateAppCallbacks } from '../../../domain/callbacks/subscriptions.js';
import type { OperatorUser } from '../session.js';
import { RegisterAppBody } from '../../admin/register-app.js';
import { RotateAppSecretsBody } from '../../admin/rotate-app-secrets.js';
import { UpdateAppBody } from '../../admin/update-app.js';
import { Field, PostForm, Select, Table, actionOrBack, field, formAction, formatTs } from '../components.js';
import { readForm, type FormWords } from '../form-check.js';
import { Layout } from '../layout.js';
import { idParam } from '../params.js';
import { pageContext, sendHtml } from '../render.js';
import { operatorOf } from '../session.js';
import { APP_KIND_WORDS, EVENT_TYPE_WORDS } from './words.js';

/** The app bodies' fields as the operator's forms label them. */
const APP_WORDS: FormWords = {
  contactEmail: 'Contact email',
  redirectUri: 'Redirect URI',
  kind: 'Kind',
  scopes: 'Scopes',
  callbackBaseUrl: 'Callback base URL',
  eventTypes: 'Tell the app when',
};
const ROTATE_WORDS: FormWords = { overlapSeconds: { says: `Overlap (seconds): must be a whole number of seconds from 0 to ${MAX_ROTATION_OVERLAP_SECONDS}` } };

const ACTIVE = '/console/operator/apps';

/** A page that shows secrets: answered to the POST itself, never stored, never cached, never shown again. */
function SecretsPage({ title, lines, appId }: { title: string; lines: [string, string][]; appId: number }) {
  return (
    <>
      <h1 safe>{title}</h1>
      <p class="flash bad" role="alert">
        Copy these now: they are shown only once. Only their hash (the client secret) or a sealed copy (the signing secret) is kept.
      </p>
      <dl class="facts">
        {lines.map(([k, v]) => (
          <>
            <dt safe>{k}</dt>
            <dd>
              <code class="secret" safe>
                {v}
              </code>
            </dd>
          </>
        ))}
      </dl>
      <p>
        <a href={`${ACTIVE}/${appId}`}>Continue to the app</a>
      </p>
    </>
  );
}

function sendSecrets(request: FastifyRequest, reply: FastifyReply, user: OperatorUser, title: string, appId: number, lines: [string, string][]) {
  const ctx = pageContext(request, reply, user, ACTIVE);
  return sendHtml(
    reply,
    <Layout ctx={ctx} title={title}>
      <SecretsPage title={title} lines={lines} appId={appId} />
    </Layout>,
  );
}

/**
 * Partner apps: list, register (POST /admin/apps), rotate secrets (POST /admin/apps/{id}/rotate-secrets),
 * callback base URL and nudge subscriptions (PATCH /admin/apps/{id}), over the same domain functions.
 */
export function registerOperatorApps(scope: FastifyInstance, deps: Deps): void {
  const options = { callbacksAllowPrivate: deps.config.callbacksAllowPrivate };

  scope.get('/operator/apps', { schema: { hide: true } }, async (request, reply) => {
    const user = operatorOf(request, reply);
    if (!user) return reply;
    const apps = await listApps(deps.db.db);
    const ctx = pageContext(request, reply, user, ACTIVE);
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Apps">
        <h1>Partner apps</h1>
        {apps.length === 0 ? (
          <p class="empty">No partner apps registered yet. Register a sales channel, shipping, inventory or 3PL app below; sellers then install it from their Apps page.</p>
        ) : (
          <Table caption="Partner apps" head={['Id', 'Name', 'Kind', 'Client id', 'Callbacks', 'Registered']}>
            {apps.map((a) => (
              <tr>
                <td safe>{String(a.appId)}</td>
                <td>
                  <a href={`${ACTIVE}/${a.appId}`} safe>
                    {a.name}
                  </a>
                </td>
                <td safe>{APP_KIND_WORDS[a.kind]}</td>
                <td>
                  <code safe>{a.clientId}</code>
                </td>
                <td safe>{a.callbackBaseUrl ?? '–'}</td>
                <td safe>{formatTs(a.createdAt)}</td>
              </tr>
            ))}
          </Table>
        )}
        <h2>Register an app</h2>
        <PostForm action={ACTIVE} csrfToken={ctx.csrfToken} class="stack">
          <Field label="Name" name="name" required hint="shown to sellers; for a sales channel also the channel name orders carry" />
          <Field label="Contact email" name="contactEmail" type="email" required />
          <Field label="Redirect URI" name="redirectUri" type="url" required hint="absolute http(s) URL; the token exchange must repeat it exactly" />
          <Select label="Kind" name="kind" options={APP_KINDS.map((k): [string, string] => [k, APP_KIND_WORDS[k]])} />
          <fieldset>
            <legend>Scopes</legend>
            {SCOPES.map((s) => (
              <label>
                <span>
                  <input type="checkbox" name="scopes" value={s} /> <span>{s}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <Field label="Callback base URL (optional)" name="callbackBaseUrl" type="url" hint="https; where storefront callbacks and nudges go" />
          <button type="submit">Register app</button>
        </PostForm>
      </Layout>,
    );
  });

  scope.post('/operator/apps', { schema: { hide: true } }, async (request, reply) => {
    const user = operatorOf(request, reply);
    if (!user) return reply;
    // Success shows the secrets on this very response; a refusal goes back to the form with its reason.
    const c = await actionOrBack(deps, request, reply, ACTIVE, () => {
      const input = readForm(RegisterAppBody, request.body, { trim: ['callbackBaseUrl'], words: APP_WORDS });
      return withTx(deps.db.db, (tx) => registerApp(tx, deps.signer, input, deps.clock.now(), options));
    });
    if (!c) return reply;
    return sendSecrets(request, reply, user, `App ${field(request.body, 'name')} registered`, c.appId, [
      ['Client id', c.clientId],
      ['Client secret', c.clientSecret],
      ['Callback signing secret', c.callbackSigningSecret],
    ]);
  });

  scope.get('/operator/apps/:appId', { schema: { hide: true } }, async (request, reply) => {
    const user = operatorOf(request, reply);
    if (!user) return reply;
    const app = await describeAppCallbacks(deps.db.db, idParam(request, 'appId'));
    const ctx = pageContext(request, reply, user, ACTIVE);
    const base = `${ACTIVE}/${app.appId}`;
    return sendHtml(
      reply,
      <Layout ctx={ctx} title={app.name}>
        <p>
          <a href={ACTIVE}>← Apps</a>
        </p>
        <h1 safe>{app.name}</h1>
        <dl class="facts">
          <dt>Id</dt>
          <dd safe>{String(app.appId)}</dd>
          <dt>Kind</dt>
          <dd safe>{APP_KIND_WORDS[app.kind]}</dd>
          <dt>Scopes</dt>
          <dd safe>{app.scopes.join(', ')}</dd>
          <dt>Client id</dt>
          <dd>
            <code safe>{app.clientId}</code>
          </dd>
          <dt>Contact</dt>
          <dd safe>{app.contactEmail}</dd>
          <dt>Redirect URI</dt>
          <dd safe>{app.redirectUri}</dd>
          <dt>Registered</dt>
          <dd safe>{formatTs(app.createdAt)}</dd>
          <dt>Previous secrets valid until</dt>
          <dd safe>{formatTs(app.previousSecretsValidUntil)}</dd>
        </dl>

        <h2>Callbacks and nudges</h2>
        <PostForm action={`${base}/callbacks`} csrfToken={ctx.csrfToken} class="stack">
          <Field label="Callback base URL" name="callbackBaseUrl" type="url" value={app.callbackBaseUrl} hint="empty removes it (then no subscription is allowed)" />
          <fieldset>
            <legend>Tell the app when (nudges)</legend>
            {EVENT_TYPES.map((t) => (
              <label>
                <span>
                  <input type="checkbox" name="eventTypes" value={t} checked={app.eventTypes.includes(t)} /> <span safe>{EVENT_TYPE_WORDS[t]}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <button type="submit">Save callbacks</button>
        </PostForm>

        <h2>Rotate secrets</h2>
        <p class="muted">A new client secret and callback signing secret; the replaced ones keep working for the overlap.</p>
        <PostForm action={`${base}/rotate-secrets`} csrfToken={ctx.csrfToken} confirm="Rotate this app's secrets?">
          <Field label="Overlap (seconds)" name="overlapSeconds" type="number" min="0" step="1" value={DEFAULT_ROTATION_OVERLAP_SECONDS} hint={`0 to ${MAX_ROTATION_OVERLAP_SECONDS}`} />
          <button type="submit" class="danger">
            Rotate secrets
          </button>
        </PostForm>
      </Layout>,
    );
  });

  scope.post('/operator/apps/:appId/callbacks', { schema: { hide: true } }, async (request, reply) => {
    if (!operatorOf(request, reply)) return reply;
    const appId = idParam(request, 'appId');
    return formAction(deps, request, reply, `${ACTIVE}/${appId}`, 'Callbacks saved.', async () => {
      // Every field is on the form: a blank address removes it (null), no box ticked is no subscription.
      const input = readForm(UpdateAppBody, request.body, { blank: 'null', trim: ['callbackBaseUrl'], words: APP_WORDS });
      await withTx(deps.db.db, (tx) => updateAppCallbacks(tx, appId, input, deps.clock.now(), options));
    });
  });

  scope.post('/operator/apps/:appId/rotate-secrets', { schema: { hide: true } }, async (request, reply) => {
    const user = operatorOf(request, reply);
    if (!user) return reply;
    const appId = idParam(request, 'appId');
    const r = await actionOrBack(deps, request, reply, `${ACTIVE}/${appId}`, () => {
      const { overlapSeconds } = readForm(RotateAppSecretsBody, request.body, { words: ROTATE_WORDS });
      return withTx(deps.db.db, (tx) => rotateAppSecrets(tx, deps.signer, appId, overlapSeconds ?? DEFAULT_ROTATION_OVERLAP_SECONDS, deps.clock.now()));
    });
    if (!r) return reply;
    return sendSecrets(request, reply, user, 'Secrets rotated', appId, [
      ['Client id', r.clientId],
      ['New client secret', r.clientSecret],
      ['New callback signing secret', r.callbackSigningSecret],
      ['Previous secrets valid until', formatTs(r.previousSecretsValidUntil)],
    ]);
  });
}
