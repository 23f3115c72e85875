import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/unavailable.js';
import { AppError } from '../../domain/errors.js';
import type { ParserErrorPage } from '../plugins/client-errors.js';
import { toAppError } from '../plugins/errors.js';
import { UTC_DISPLAY } from './format.js';
import { Layout, type PageContext } from './layout.js';
import { fieldWords, refusalSentence } from './refusal-words.js';
import { pageContext, sendHtml } from './render.js';
import { SECURITY_HEADERS, setSecurityHeaders } from './security.js';

const TITLES: Record<number, string> = {
  400: 'That did not work',
  401: 'Please sign in',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  413: 'Too large',
  414: 'Address too long',
  429: 'Too many requests',
  503: 'Temporarily unavailable',
};

/** Whether a request URL is the console's (its pages and errors are HTML, not the API's JSON). */
export function isConsoleUrl(url: string): boolean {
  return /^\/console(?:[/?#]|$)/.test(url);
}

/**
 * The frame's context for an error page. A request refused before the console's own hooks ran (a URL that
 * does not decode, a refused query string or body size) has no parsed cookies, form token or session: it
 * gets the signed-out frame, and nothing that would read or clear a cookie.
 */
function errorContext(request: FastifyRequest, reply: FastifyReply): PageContext {
  if (!request.csrfToken) return { user: null, csrfToken: '', flash: null, settings: UTC_DISPLAY };
  return pageContext(request, reply, request.consoleSession?.user ?? null);
}

/** The error page itself: the domain's message (written for people) in the frame, with the request id to quote. */
function ErrorPage({ appError, requestId, ctx }: { appError: AppError; requestId: string; ctx: PageContext }) {
  const status = appError.status;
  const title = TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'That did not work');
  const sentence = refusalSentence(appError);
  const lines = sentence !== null ? [sentence] : appError.violations.length > 0 ? appError.violations.map((v) => `${fieldWords(v.field)}: ${v.description}`) : [appError.message];
  return (
    <Layout ctx={ctx} title={title}>
      <h1 safe>{title}</h1>
      <ul>
        {lines.map((line) => (
          <li safe>{line}</li>
        ))}
      </ul>
      <p class="muted" safe>{`Reference: ${requestId}`}</p>
      <p>
        <a href="/console">Back to the console</a>
      </p>
    </Layout>
  );
}

/** A console error as a page, with the console's security headers whether or not its hooks ran. */
export function renderConsoleError(appError: AppError, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  setSecurityHeaders(reply);
  if (appError.status === 503) reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
  return sendHtml(reply, <ErrorPage appError={appError} requestId={request.id} ctx={errorContext(request, reply)} />, appError.status);
}

/**
 * The page of a console request that Node's HTTP parser refused (a control character or a raw non-ASCII
 * byte in the URL, a head over 16 KiB), written by the client error handler straight to the socket; null
 * for a target outside the console.
 */
export function consoleParserErrorPage(target: string, appError: AppError, requestId: string): ParserErrorPage | null {
  if (!isConsoleUrl(target)) return null;
  return {
    headers: { ...SECURITY_HEADERS, 'Cache-Control': 'no-store' },
    contentType: 'text/html; charset=utf-8',
    body: <ErrorPage appError={appError} requestId={requestId} ctx={{ user: null, csrfToken: '', flash: null, settings: UTC_DISPLAY }} />,
  };
}

/**
 * Fastify's frameworkErrors for a console URL (a path that does not decode, a path parameter over the
 * router's limit): the 4xx page, not the API's JSON. These requests skip every hook, so the request id
 * header is set here.
 */
export function renderConsoleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  reply.header('X-Request-Id', request.id);
  const { appError, internal } = toAppError(error);
  if (internal) request.log.error({ err: error }, 'unhandled console error');
  return renderConsoleError(appError, request, reply);
}

/**
 * Console errors are pages, not JSON. Another account's object is a 404 like a missing one.
 */
export function registerConsoleErrorPages(scope: FastifyInstance): void {
  scope.setErrorHandler((error, request, reply) => {
    const { appError, internal } = toAppError(error);
    if (internal) request.log.error({ err: error }, 'unhandled console error');
    return renderConsoleError(appError, request, reply);
  });
  scope.setNotFoundHandler((request, reply) =>
    renderConsoleError(new AppError('NOT_FOUND', `There is no page at ${request.url.split('?')[0]}.`), request, reply),
  );
}
