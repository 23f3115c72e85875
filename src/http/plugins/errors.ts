import type { App } from '../types.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_CODES, type FieldViolation } from '../../domain/errors.js';

export type ErrorStyle = 'v1' | 'v2';

/** v2 routes answer google.rpc.Status; everything else (v1, admin, unknown) the v1 body (resolutions §0). */
export function errorStyleFor(url: string): ErrorStyle {
  return url.startsWith('/v2/') || url === '/v2' ? 'v2' : 'v1';
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

function violationsFrom(error: FastifyError): FieldViolation[] {
  const context = error.validationContext ?? 'body';
  return (error.validation ?? []).map((v) => {
    const params = v.params as Record<string, unknown>;
    const field = fieldName(v.instancePath, params.missingProperty) || context;
    let description = v.message ?? 'is invalid';
    if (v.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      description = `must be one of ${params.allowedValues.join(', ')}`;
    } else if (v.keyword === 'additionalProperties') {
      description = `unknown field "${String(params.additionalProperty)}"`;
    } else if (v.keyword === 'required') {
      description = 'is required';
    }
    return { field: context === 'body' || field === context ? field : `${field}`, description };
  });
}

/** Normalizes anything thrown into an AppError the renderers understand; unknown errors become INTERNAL. */
export function toAppError(error: unknown): { appError: AppError; internal: boolean } {
  if (error instanceof AppError) return { appError: error, internal: false };
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
  if (status >= 400 && status < 500) {
    const appError = new AppError('INVALID_ARGUMENT', fe.message);
    // Keep the framework's own 4xx status (415, 405…) while rendering through the catalogue.
    Object.defineProperty(appError, 'status', { value: status });
    return { appError, internal: false };
  }
  return { appError: new AppError('INTERNAL', INTERNAL_MESSAGE), internal: true };
}

export function renderError(request: FastifyRequest, reply: FastifyReply, appError: AppError) {
  const style = errorStyleFor(request.url);
  const status = appError.status;
  if (status === 401) reply.header('WWW-Authenticate', 'Bearer error="invalid_token"');
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
