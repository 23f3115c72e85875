import type { App } from '../types.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_CODES, MAX_LISTED_VIOLATIONS, problemLines, problemsMessage, type FieldViolation } from '../../domain/errors.js';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../../db/unavailable.js';
import { NO_CONTROL_CHARACTERS } from '../schemas/common.js';
import { trackRouteMethods } from './route-methods.js';

export type ErrorStyle = 'v1' | 'v2';

/** v2 routes answer google.rpc.Status; everything else (v1, admin, unknown) the v1 body (resolutions §0). */
export function errorStyleFor(url: string): ErrorStyle {
  return /^\/v2(?:[/?#]|$)/.test(url) ? 'v2' : 'v1';
}

const INTERNAL_MESSAGE = 'internal error; quote the referenceId when contacting support';

/** Longest URL (path and query) the service reads. */
export const MAX_URL_LENGTH = 8192;
/** Longest path parameter as sent (the router's maxParamLength): a 255-character SKU percent-encoded fits. */
export const MAX_PATH_PARAM_LENGTH = 4096;
const uriTooLongMessage = `the URL is longer than the service accepts (${MAX_URL_LENGTH} characters; a path parameter ${MAX_PATH_PARAM_LENGTH})`;

function grpcCodeForStatus(status: number): number {
  const entry = Object.values(ERROR_CODES).find((e) => e.status === status);
  if (entry) return entry.grpc;
  if (status === 404) return 5;
  if (status >= 500) return 13;
  return 3;
}

/** Turns an ajv path such as /items/0/SKU into items[0].SKU. */
function fieldName(instancePath: string, missing?: unknown): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (typeof missing === 'string') parts.push(missing);
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

type AjvProblem = NonNullable<FastifyError['validation']>[number];

function describe(v: AjvProblem): string {
  const params = v.params as Record<string, unknown>;
  if (v.keyword === 'enum' && Array.isArray(params.allowedValues)) return `must be one of ${params.allowedValues.join(', ')}`;
  if (v.keyword === 'additionalProperties') return `unknown field "${String(params.additionalProperty)}"`;
  if (v.keyword === 'required') return 'is required';
  // A type list (["string", "null"]) reads "must be string or null", not ajv's "must be string,null".
  if (v.keyword === 'type') return `must be ${String(params.type).split(',').join(' or ')}`;
  if (v.keyword === 'pattern' && params.pattern === NO_CONTROL_CHARACTERS) return 'must not contain control characters';
  if (v.keyword === 'maxLength') return `must be at most ${String(params.limit)} characters`;
  return v.message ?? 'is invalid';
}

const isUnion = (v: AjvProblem) => v.keyword === 'anyOf' || v.keyword === 'oneOf';

/** The instance path itself and every path above it: '/a/0/b' → '', '/a', '/a/0', '/a/0/b'. */
function selfAndAncestors(instancePath: string): string[] {
  const out = [''];
  for (let i = instancePath.indexOf('/', 1); i !== -1; i = instancePath.indexOf('/', i + 1)) out.push(instancePath.slice(0, i));
  if (instancePath !== '') out.push(instancePath);
  return out;
}

/** How many alternatives a union's description lists before it stops. */
const MAX_UNION_ALTERNATIVES = 10;

/**
 * One violation per problem (resolutions §0). A value that matches no branch of an anyOf/oneOf (an int64
 * given as a string or a number, say) makes ajv report every branch plus the union itself: those collapse
 * into one "must be string or must be integer".
 *
 * Linear in the number of problems: a branch problem sits under its union in the data, so only the unions
 * at its own path or above it (looked up by path) can own it; comparing every problem with every union made
 * a body of a few thousand bad entries block the event loop for minutes.
 */
export function violationsFrom(error: FastifyError): FieldViolation[] {
  const context = error.validationContext ?? 'body';
  const problems = error.validation ?? [];
  const unionsAt = new Map<string, AjvProblem[]>();
  for (const u of problems) {
    if (!isUnion(u)) continue;
    const here = unionsAt.get(u.instancePath);
    if (here) here.push(u);
    else unionsAt.set(u.instancePath, [u]);
  }
  // A branch problem sits under the union in the schema AND in the data (array items share schema paths).
  const branchesOf = new Map<AjvProblem, AjvProblem[]>();
  const isBranch = new Set<AjvProblem>();
  if (unionsAt.size > 0) {
    for (const b of problems) {
      for (const path of selfAndAncestors(b.instancePath)) {
        for (const u of unionsAt.get(path) ?? []) {
          if (u === b || !b.schemaPath.startsWith(`${u.schemaPath}/`)) continue;
          isBranch.add(b);
          const list = branchesOf.get(u);
          if (list) list.push(b);
          else branchesOf.set(u, [b]);
        }
      }
    }
  }
  const fieldOf = (v: AjvProblem) => fieldName(v.instancePath, (v.params as Record<string, unknown>).missingProperty) || context;
  const seen = new Set<string>();
  const out: FieldViolation[] = [];
  for (const v of problems) {
    if (isBranch.has(v)) continue;
    const field = fieldOf(v);
    let description = describe(v);
    const branches = branchesOf.get(v);
    if (branches) {
      // A nested union's own "must match a schema in anyOf" adds nothing: its branches are listed already.
      // When the value has the type of a branch and breaks one of its rules (a string too long), the
      // other branches' "must be null" is noise: that rule is the problem.
      const ruleBroken = branches.some((b) => b.instancePath === v.instancePath && b.keyword !== 'type' && !isUnion(b));
      const alternatives = new Set<string>();
      for (const b of branches) {
        if (isUnion(b) && branchesOf.has(b)) continue;
        if (ruleBroken && b.keyword === 'type' && b.instancePath === v.instancePath) continue;
        const sub = fieldOf(b);
        alternatives.add(sub === field ? describe(b) : `${sub}: ${describe(b)}`);
        if (alternatives.size > MAX_UNION_ALTERNATIVES) break;
      }
      const listed = [...alternatives].slice(0, MAX_UNION_ALTERNATIVES);
      if (alternatives.size > MAX_UNION_ALTERNATIVES) listed.push('…');
      if (listed.length > 0) description = listed.join(' or ');
    }
    const key = `${field}\n${description}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ field, description });
  }
  return out;
}

/** Normalizes anything thrown into an AppError the renderers understand; unknown errors become INTERNAL. */
export function toAppError(error: unknown): { appError: AppError; internal: boolean } {
  if (error instanceof AppError) {
    // INTERNAL is a programming error (internalError): logged with its detail, answered with the fixed message.
    if (error.code === 'INTERNAL') return { appError: new AppError('INTERNAL', INTERNAL_MESSAGE), internal: true };
    return { appError: error, internal: false };
  }
  const unavailable = databaseUnavailable(error);
  if (unavailable) return { appError: unavailable, internal: false };
  const fe = error as FastifyError;
  if (fe && Array.isArray(fe.validation)) {
    const violations = violationsFrom(fe);
    return { appError: new AppError('INVALID_ARGUMENT', problemsMessage(violations) || 'invalid request', violations), internal: false };
  }
  const status = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (status === 413 || fe?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { appError: new AppError('PAYLOAD_TOO_LARGE', 'request body is larger than the service accepts'), internal: false };
  }
  if (fe?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (error instanceof SyntaxError && status === 400)) {
    return { appError: new AppError('INVALID_ARGUMENT', `malformed JSON body: ${fe.message}`), internal: false };
  }
  if (fe?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return {
      appError: new AppError('UNSUPPORTED_MEDIA_TYPE', 'unsupported Content-Type for this route (JSON routes take application/json)'),
      internal: false,
    };
  }
  if (fe?.code === 'FST_ERR_BAD_URL') {
    return { appError: new AppError('INVALID_ARGUMENT', 'the path holds a percent-escape that is not valid UTF-8'), internal: false };
  }
  if (status === 414 || fe?.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return { appError: new AppError('URI_TOO_LONG', uriTooLongMessage), internal: false };
  }
  if (status === 404) return { appError: new AppError('NOT_FOUND', fe.message), internal: false };
  if (status >= 400 && status < 500) {
    // Any other framework 4xx (a wrong Content-Length…) is the client's input: a 400.
    return { appError: new AppError('INVALID_ARGUMENT', fe.message), internal: false };
  }
  return { appError: new AppError('INTERNAL', INTERNAL_MESSAGE), internal: true };
}

/**
 * A database that cannot be reached (down, restarting, failing over, locked past the busy timeout) is a
 * 503 the client retries after Retry-After (resolutions §7 "Operation"), not a 500.
 */
function databaseUnavailable(error: unknown): AppError | null {
  if (!isDatabaseUnavailable(error)) return null;
  return new AppError('UNAVAILABLE', 'the service is temporarily unavailable; retry after the Retry-After delay');
}

/** The contract's error body for the path's style (resolutions §0): v2 google.rpc.Status, else the v1 body. */
export function errorBody(style: ErrorStyle, appError: AppError, referenceId: string): Record<string, unknown> {
  const status = appError.status;
  if (style === 'v2') {
    const grpc = appError.status === ERROR_CODES[appError.code].status ? ERROR_CODES[appError.code].grpc : grpcCodeForStatus(status);
    const details =
      appError.violations.length > 0
        ? [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: appError.violations.slice(0, MAX_LISTED_VIOLATIONS) }]
        : [];
    return { code: grpc, message: appError.message, details };
  }
  const errorMessages = appError.violations.length > 0 ? problemLines(appError.violations) : [appError.message];
  return { errorCode: status, errorMessages, referenceId, ...(status >= 500 ? { errorMessage: appError.message } : {}) };
}

export function renderError(request: FastifyRequest, reply: FastifyReply, appError: AppError) {
  const style = errorStyleFor(request.url);
  const status = appError.status;
  // The auth hook may have set a more precise challenge (no credentials at all: realm only); keep it.
  if (status === 401 && !reply.hasHeader('WWW-Authenticate')) reply.header('WWW-Authenticate', 'Bearer error="invalid_token"');
  if (status === 503) reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
  reply.code(status).type('application/json; charset=utf-8');
  return reply.send(errorBody(style, appError, request.id));
}

export function registerErrorHandling(app: App) {
  app.setErrorHandler((error, request, reply) => {
    const { appError, internal } = toAppError(error);
    if (internal) request.log.error({ err: error }, 'unhandled error');
    else if (appError.status >= 500) request.log.warn({ err: error }, 'service error');
    return renderError(request, reply, appError);
  });
  const routes = trackRouteMethods(app);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = routes.methodsFor(path);
    if (allowed.length === 0) return renderError(request, reply, new AppError('NOT_FOUND', `no route ${request.method} ${path}`));
    const message = `${request.method} is not supported on ${path}; it takes ${allowed.join(', ')}`;
    if (errorStyleFor(request.url) === 'v2') return renderError(request, reply, new AppError('UNIMPLEMENTED', message));
    reply.header('Allow', allowed.join(', '));
    return renderError(request, reply, new AppError('METHOD_NOT_ALLOWED', message));
  });
  // A URL longer than this is refused before any route work (Node refuses a request head over 16 KiB itself).
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.url.length > MAX_URL_LENGTH) done(new AppError('URI_TOO_LONG', uriTooLongMessage));
    else if (!queryIsUtf8(request.url)) done(new AppError('INVALID_ARGUMENT', 'the query string holds a percent-escape that is not valid UTF-8'));
    else done();
  });
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether every run of %XX escapes in the query string decodes to UTF-8 (resolutions §7). The query parser
 * would keep such a value undecoded ("%FF") and look it up as is; a lone "%" is left alone as it does.
 */
function queryIsUtf8(url: string): boolean {
  const start = url.indexOf('?');
  if (start < 0 || !url.includes('%', start)) return true;
  for (const [run] of url.slice(start).matchAll(/(?:%[0-9A-Fa-f]{2})+/g)) {
    try {
      strictUtf8.decode(Buffer.from(run.replace(/%/g, ''), 'hex'));
    } catch {
      return false;
    }
  }
  return true;
}

/** Fastify's frameworkErrors: a path that does not decode, or a path parameter over maxParamLength. */
export function renderFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // The onRequest hook that sets this header does not run for these requests.
  reply.header('X-Request-Id', request.id);
  return renderError(request, reply, toAppError(error).appError);
}
