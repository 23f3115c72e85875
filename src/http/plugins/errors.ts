import type { App } from '../types.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_CODES, type FieldViolation } from '../../domain/errors.js';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../../db/unavailable.js';

export type ErrorStyle = 'v1' | 'v2';

/** v2 routes answer google.rpc.Status; everything else (v1, admin, unknown) the v1 body (resolutions §0). */
export function errorStyleFor(url: string): ErrorStyle {
  return /^\/v2(?:[/?#]|$)/.test(url) ? 'v2' : 'v1';
}

const INTERNAL_MESSAGE = 'internal error; quote the referenceId when contacting support';

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
  return v.message ?? 'is invalid';
}

/**
 * One violation per problem (resolutions §0). A value that matches no branch of an anyOf/oneOf (an int64
 * given as a string or a number, say) makes ajv report every branch plus the union itself: those collapse
 * into one "must be string or must be integer".
 */
function violationsFrom(error: FastifyError): FieldViolation[] {
  const context = error.validationContext ?? 'body';
  const problems = error.validation ?? [];
  const unions = problems.filter((v) => v.keyword === 'anyOf' || v.keyword === 'oneOf');
  // A branch problem sits under the union in the schema AND in the data (array items share schema paths).
  const isBranch = (b: AjvProblem, u: AjvProblem) =>
    b !== u &&
    b.schemaPath.startsWith(`${u.schemaPath}/`) &&
    (b.instancePath === u.instancePath || b.instancePath.startsWith(`${u.instancePath}/`));
  const branchOf = (v: AjvProblem) => unions.find((u) => isBranch(v, u));
  const seen = new Set<string>();
  const out: FieldViolation[] = [];
  for (const v of problems) {
    if (branchOf(v)) continue;
    const params = v.params as Record<string, unknown>;
    const field = fieldName(v.instancePath, params.missingProperty) || context;
    let description = describe(v);
    if (unions.includes(v)) {
      const branches = problems
        .filter((b) => isBranch(b, v))
        .map((b) => {
          const sub = fieldName(b.instancePath, (b.params as Record<string, unknown>).missingProperty) || context;
          return sub === field ? describe(b) : `${sub}: ${describe(b)}`;
        });
      if (branches.length > 0) description = [...new Set(branches)].join(' or ');
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
  if (error instanceof AppError) return { appError: error, internal: false };
  const unavailable = databaseUnavailable(error);
  if (unavailable) return { appError: unavailable, internal: false };
  const fe = error as FastifyError;
  if (fe && Array.isArray(fe.validation)) {
    const violations = violationsFrom(fe);
    const message = violations.map((v) => `${v.field}: ${v.description}`).join('; ');
    return { appError: new AppError('INVALID_ARGUMENT', message || 'invalid request', violations), internal: false };
  }
  const status = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (status === 413 || fe?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { appError: new AppError('PAYLOAD_TOO_LARGE', 'request body is larger than the service accepts'), internal: false };
  }
  if (fe?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (error instanceof SyntaxError && status === 400)) {
    return { appError: new AppError('INVALID_ARGUMENT', `malformed JSON body: ${fe.message}`), internal: false };
  }
  if (fe?.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return { appError: new AppError('INVALID_ARGUMENT', 'the JSON body is empty'), internal: false };
  }
  if (fe?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    // The contract's statuses have no 415: an unsupported body type is invalid input like any other.
    return {
      appError: new AppError('INVALID_ARGUMENT', 'unsupported Content-Type for this route (JSON routes take application/json)'),
      internal: false,
    };
  }
  if (status === 404) return { appError: new AppError('NOT_FOUND', fe.message), internal: false };
  if (status >= 400 && status < 500) {
    // Any other framework 4xx (a bad URL, a wrong Content-Length…) is the client's input: a 400.
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

export function renderError(request: FastifyRequest, reply: FastifyReply, appError: AppError) {
  const style = errorStyleFor(request.url);
  const status = appError.status;
  // The auth hook may have set a more precise challenge (no credentials at all: realm only); keep it.
  if (status === 401 && !reply.hasHeader('WWW-Authenticate')) reply.header('WWW-Authenticate', 'Bearer error="invalid_token"');
  if (status === 503) reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
  reply.code(status).type('application/json; charset=utf-8');
  if (style === 'v2') {
    const grpc = appError.status === ERROR_CODES[appError.code].status ? ERROR_CODES[appError.code].grpc : grpcCodeForStatus(status);
    const details =
      appError.violations.length > 0
        ? [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: appError.violations }]
        : [];
    return reply.send({ code: grpc, message: appError.message, details });
  }
  const errorMessages = appError.violations.length > 0
    ? appError.violations.map((v) => `${v.field}: ${v.description}`)
    : [appError.message];
  return reply.send({
    errorCode: status,
    errorMessages,
    referenceId: request.id,
    ...(status >= 500 ? { errorMessage: appError.message } : {}),
  });
}

export function registerErrorHandling(app: App) {
  app.setErrorHandler((error, request, reply) => {
    const { appError, internal } = toAppError(error);
    if (internal) request.log.error({ err: error }, 'unhandled error');
    else if (appError.status >= 500) request.log.warn({ err: error }, 'service error');
    return renderError(request, reply, appError);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    return renderError(request, reply, new AppError('NOT_FOUND', `no route ${request.method} ${path}`));
  });
}
