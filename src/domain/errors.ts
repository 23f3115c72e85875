/**
 * The one error catalogue. Domain code throws AppError; the HTTP edge renders it as a v1 or a v2 body
 * (resolutions §0) chosen by route prefix. Messages are written for the partner reading them.
 */
export type ErrorCode =
  | 'INVALID_ARGUMENT'
  | 'FAILED_PRECONDITION'
  | 'OUT_OF_RANGE'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'ABORTED'
  | 'PAYLOAD_TOO_LARGE'
  | 'URI_TOO_LONG'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'HEADERS_TOO_LARGE'
  | 'METHOD_NOT_ALLOWED'
  | 'REQUEST_TIMEOUT'
  | 'RESOURCE_EXHAUSTED'
  | 'UNIMPLEMENTED'
  | 'INTERNAL'
  | 'BAD_GATEWAY'
  | 'UNAVAILABLE';

/** HTTP status and google.rpc code number of each catalogue entry (grpc-gateway mapping). */
export const ERROR_CODES: Record<ErrorCode, { status: number; grpc: number }> = {
  INVALID_ARGUMENT: { status: 400, grpc: 3 },
  FAILED_PRECONDITION: { status: 400, grpc: 9 },
  OUT_OF_RANGE: { status: 400, grpc: 11 },
  UNAUTHENTICATED: { status: 401, grpc: 16 },
  PERMISSION_DENIED: { status: 403, grpc: 7 },
  NOT_FOUND: { status: 404, grpc: 5 },
  ALREADY_EXISTS: { status: 409, grpc: 6 },
  ABORTED: { status: 409, grpc: 10 },
  // A body over the limit has no grpc-gateway status of its own; INVALID_ARGUMENT is the closest code.
  PAYLOAD_TOO_LARGE: { status: 413, grpc: 3 },
  // The same holds for the other HTTP-level refusals of the request's form: the status says which one.
  URI_TOO_LONG: { status: 414, grpc: 3 },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, grpc: 3 },
  HEADERS_TOO_LARGE: { status: 431, grpc: 3 },
  // v1 only: a v2 path answers a wrong method with UNIMPLEMENTED (501), as grpc-gateway does.
  METHOD_NOT_ALLOWED: { status: 405, grpc: 12 },
  REQUEST_TIMEOUT: { status: 408, grpc: 4 },
  RESOURCE_EXHAUSTED: { status: 429, grpc: 8 },
  UNIMPLEMENTED: { status: 501, grpc: 12 },
  INTERNAL: { status: 500, grpc: 13 },
  // A partner the service called failed (a synchronous callback): not the service's fault, not the caller's.
  BAD_GATEWAY: { status: 502, grpc: 14 },
  UNAVAILABLE: { status: 503, grpc: 14 },
};

export interface FieldViolation {
  field: string;
  description: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly violations: FieldViolation[];

  constructor(code: ErrorCode, message: string, violations: FieldViolation[] = []) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.violations = violations;
  }
}

export const invalidArgument = (message: string, violations: FieldViolation[] = []) =>
  new AppError('INVALID_ARGUMENT', message, violations);

/**
 * A response lists at most this many problems and counts the rest: a body of 10,000 bad entries would
 * otherwise answer with 10,000 messages, and the first few are what a partner fixes first.
 */
export const MAX_LISTED_VIOLATIONS = 20;

const problemLine = (v: FieldViolation) => `${v.field}: ${v.description}`;
const moreProblemsLine = (count: number) => `... and ${count.toLocaleString('en-US')} more problem${count === 1 ? '' : 's'}`;

/** The listed problems as v1 errorMessages lines: the first MAX_LISTED_VIOLATIONS, then how many more. */
export function problemLines(violations: FieldViolation[]): string[] {
  const lines = violations.slice(0, MAX_LISTED_VIOLATIONS).map(problemLine);
  if (violations.length > MAX_LISTED_VIOLATIONS) lines.push(moreProblemsLine(violations.length - MAX_LISTED_VIOLATIONS));
  return lines;
}

/** One message naming the listed problems, "; "-separated. */
export function problemsMessage(violations: FieldViolation[]): string {
  return problemLines(violations).join('; ');
}

/** INVALID_ARGUMENT for several problems at once, its message naming the listed ones. */
export const invalidFields = (violations: FieldViolation[]) => invalidArgument(problemsMessage(violations), violations);

/** One violation, phrased both as the message and as the field detail. */
export const invalidField = (field: string, description: string) =>
  new AppError('INVALID_ARGUMENT', `${field}: ${description}`, [{ field, description }]);

export const unauthenticated = (message = 'missing or invalid access token') =>
  new AppError('UNAUTHENTICATED', message);

export const permissionDenied = (message: string) => new AppError('PERMISSION_DENIED', message);

export const notFound = (message: string) => new AppError('NOT_FOUND', message);

export const conflict = (message: string) => new AppError('ABORTED', message);

export const alreadyExists = (message: string) => new AppError('ALREADY_EXISTS', message);

export const badGateway = (message: string) => new AppError('BAD_GATEWAY', message);

export const failedPrecondition = (message: string) => new AppError('FAILED_PRECONDITION', message);

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
