// Every non-200 answer becomes an ApiError carrying the HTTP status and the parsed error body: v1 routes
// answer {errorCode, errorMessages, referenceId} (document 7.1), v2 routes google.rpc.Status (7.2).

export interface V1ErrorBody {
  errorCode: number;
  errorMessages: string[];
  referenceId: string;
  /** Only on 500 answers. */
  errorMessage?: string;
}

export interface V2ErrorDetail {
  '@type': string;
  [field: string]: unknown;
}

export interface V2ErrorBody {
  code: number;
  message: string;
  details: V2ErrorDetail[];
}

export type ApiErrorBody = { kind: 'v1'; body: V1ErrorBody } | { kind: 'v2'; body: V2ErrorBody } | { kind: 'other'; body: unknown };

export function isV1ErrorBody(value: unknown): value is V1ErrorBody {
  const v = value as Partial<V1ErrorBody> | null;
  return typeof v === 'object' && v !== null && typeof v.errorCode === 'number' && Array.isArray(v.errorMessages);
}

export function isV2ErrorBody(value: unknown): value is V2ErrorBody {
  const v = value as Partial<V2ErrorBody> | null;
  return typeof v === 'object' && v !== null && typeof v.code === 'number' && typeof v.message === 'string' && Array.isArray(v.details);
}

export function classifyErrorBody(body: unknown): ApiErrorBody {
  if (isV1ErrorBody(body)) return { kind: 'v1', body };
  if (isV2ErrorBody(body)) return { kind: 'v2', body };
  return { kind: 'other', body };
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly error: ApiErrorBody;

  constructor(
    readonly status: number,
    readonly method: string,
    readonly url: string,
    body: unknown,
    /** Seconds from a Retry-After header, when the answer had one. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    const error = classifyErrorBody(body);
    super(`${method} ${url} answered ${status}: ${describe(error)}`);
    this.error = error;
  }

  /** The v1 body, when the route answered one. */
  get v1(): V1ErrorBody | undefined {
    return this.error.kind === 'v1' ? this.error.body : undefined;
  }

  /** The v2 body, when the route answered one. */
  get v2(): V2ErrorBody | undefined {
    return this.error.kind === 'v2' ? this.error.body : undefined;
  }
}

function describe(error: ApiErrorBody): string {
  if (error.kind === 'v1') return `${error.body.errorMessages.join('; ')} (referenceId ${error.body.referenceId})`;
  if (error.kind === 'v2') return `code ${error.body.code}: ${error.body.message}`;
  return typeof error.body === 'string' ? error.body.slice(0, 200) : 'no error body';
}
