import type { PropsWithChildren } from '@kitajs/html';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { isAppError } from '../../domain/errors.js';
import { CsrfField } from './layout.js';
import { flash } from './session.js';
import { refusalText } from './refusal-words.js';

/** Shared pieces of the console's pages. Everything user-provided is rendered with `safe` (escaped). */

export type Tone = 'ok' | 'warn' | 'bad' | 'none';

export function Badge({ tone = 'none', text }: { tone?: Tone; text: string }) {
  return (
    <span class={tone === 'none' ? 'badge' : `badge ${tone}`} safe>
      {text}
    </span>
  );
}

/** A POST form with the CSRF field; `confirm` asks first when JavaScript runs (htmx's hx-confirm). */
export function PostForm({ action, csrfToken, confirm, class: cls, children }: PropsWithChildren<{ action: string; csrfToken: string; confirm?: string; class?: string }>) {
  return (
    <form method="post" action={action} class={cls ?? 'inline'} hx-confirm={confirm}>
      <CsrfField token={csrfToken} />
      {children}
    </form>
  );
}

/** A labelled input; `hint` is read by screen readers with the label. */
export function Field({
  label,
  name,
  value,
  type = 'text',
  required,
  hint,
  min,
  step,
  placeholder,
}: {
  label: string;
  name: string;
  value?: string | number | null;
  type?: string;
  required?: boolean;
  hint?: string;
  min?: string;
  step?: string;
  placeholder?: string;
}) {
  return (
    <label>
      <span safe>{label}</span>
      {hint ? (
        <span class="hint" safe>
          {hint}
        </span>
      ) : (
        ''
      )}
      <input type={type} name={name} value={value === null || value === undefined ? undefined : String(value)} required={required} min={min} step={step} placeholder={placeholder} />
    </label>
  );
}

export function Select({ label, name, options, value }: { label: string; name: string; options: readonly (string | [string, string])[]; value?: string }) {
  return (
    <label>
      <span safe>{label}</span>
      <select name={name}>
        {options.map((o) => {
          const [v, text] = typeof o === 'string' ? [o, o] : o;
          return (
            <option value={v} selected={v === value} safe>
              {text}
            </option>
          );
        })}
      </select>
    </label>
  );
}

/** A table that scrolls sideways on a phone; `caption` names it for screen readers. */
export function Table({ caption, head, children }: PropsWithChildren<{ caption: string; head: readonly string[] }>) {
  return (
    <div class="table-wrap">
      <table>
        <caption class="skip" safe>
          {caption}
        </caption>
        <thead>
          <tr>
            {head.map((h) => (
              <th scope="col" safe>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** Keyset paging: a link to the next page (the same filters plus the cursor), none on the last page. */
export function Pager({ base, params, cursorName = 'cursor', next }: { base: string; params: Record<string, string | undefined>; cursorName?: string; next: string | null }) {
  if (!next) return <p class="muted">End of the list.</p>;
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '' && k !== cursorName) query.set(k, v);
  query.set(cursorName, next);
  return (
    <nav class="pager" aria-label="Pages">
      <a href={`${base}?${query.toString()}`}>Next page →</a>
    </nav>
  );
}

// Dates and money in the account's settings (src/http/console/format.ts); re-exported for the pages' imports.
export { formatMoney, formatTs, type DisplaySettings } from './format.js';

/** A form body's text field ('' when absent or not text). */
export function field(body: unknown, name: string): string {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : '';
}

/** A form body's field that may repeat (checkboxes, several rows of one name). */
export function fields(body: unknown, name: string): string[] {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}

/**
 * Runs a form's action (Post/Redirect/Get): on success a flash with `ok` (or what the action returns) and a
 * redirect to `back`; a domain refusal (AppError below 500) becomes a flash with its message and the same
 * redirect, so the seller sees why on the page they came from. Other errors go to the error page.
 */
export async function formAction(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  back: string,
  ok: string,
  action: () => Promise<string | void>,
): Promise<FastifyReply> {
  try {
    const message = await action();
    flash(deps, request, reply, 'ok', message || ok);
  } catch (error) {
    flash(deps, request, reply, 'bad', flashText(error));
  }
  return reply.redirect(back, 303);
}

/** A domain refusal's text for a flash, in the console's words; anything else (a bug, a 5xx) is rethrown to the error page. */
function flashText(error: unknown): string {
  if (!isAppError(error) || error.status >= 500) throw error;
  return refusalText(error);
}

/**
 * For an action whose success answers with its own page (a secret or a link shown once, so no redirect):
 * its result, or, when the domain refuses, a flash with the reason and a redirect to `back` and null
 * (the reply is sent: return it).
 */
export async function actionOrBack<T>(deps: Deps, request: FastifyRequest, reply: FastifyReply, back: string, action: () => Promise<T>): Promise<T | null> {
  try {
    return await action();
  } catch (error) {
    flash(deps, request, reply, 'bad', flashText(error));
    await reply.redirect(back, 303);
    return null;
  }
}

/** The tone of a job's or a delivery's state: done, waiting, or needing the operator. */
export function stateTone(state: string): Tone {
  if (state === 'SUCCEEDED') return 'ok';
  if (state === 'DEAD') return 'bad';
  return 'warn';
}

/** The first line of an error (a stack follows it), for a table cell. */
export function firstLine(text: string | null): string {
  return text === null ? '' : (text.split('\n')[0] ?? '').slice(0, 300);
}
