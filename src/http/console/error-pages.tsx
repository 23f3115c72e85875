import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/unavailable.js';
import { AppError } from '../../domain/errors.js';
import { toAppError } from '../plugins/errors.js';
import { Layout } from './layout.js';
import { pageContext, sendHtml } from './render.js';

const TITLES: Record<number, string> = {
  400: 'That did not work',
  401: 'Please sign in',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  429: 'Too many requests',
  503: 'Temporarily unavailable',
};

/**
 * Console errors are pages, not JSON: the domain's message (written for people) in the frame, with the
 * request id to quote. Another account's object is a 404 like a missing one.
 */
export function registerConsoleErrorPages(scope: FastifyInstance): void {
  const render = (appError: AppError, request: FastifyRequest, reply: FastifyReply) => {
    const status = appError.status;
    const title = TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'That did not work');
    if (status === 503) reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    const lines = appError.violations.length > 0 ? appError.violations.map((v) => `${v.field}: ${v.description}`) : [appError.message];
    const ctx = pageContext(request, reply, request.consoleSession?.user ?? null);
    return sendHtml(
      reply,
      <Layout ctx={ctx} title={title}>
        <h1 safe>{title}</h1>
        <ul>
          {lines.map((line) => (
            <li safe>{line}</li>
          ))}
        </ul>
        <p class="muted" safe>{`Reference: ${request.id}`}</p>
        <p>
          <a href="/console">Back to the console</a>
        </p>
      </Layout>,
      status,
    );
  };
  scope.setErrorHandler((error, request, reply) => {
    const { appError, internal } = toAppError(error);
    if (internal) request.log.error({ err: error }, 'unhandled console error');
    return render(appError, request, reply);
  });
  scope.setNotFoundHandler((request, reply) => render(new AppError('NOT_FOUND', `There is no page at ${request.url.split('?')[0]}.`), request, reply));
}
