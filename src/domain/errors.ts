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

/**
 * Why a refusal happened, as a stable code and the facts a sentence needs. The API answers `message`
 * (written for partners, unchanged); the console turns the refusal into a seller's or an operator's
 * sentence, one map per area (src/http/console/refusal-words.ts composes them, and the compiler checks
 * every code here has its sentence there). Codes are "<area>.<what>"; facts name things as people see
 * them (a SKU, a warehouse's name), never by an API field.
 */
export interface RefusalFacts {
  /** A stock change would take the available units below zero. */
  'stock.would_go_negative': { sku: string; warehouse: string; units: number };
  /** A stock change would take a count past what a stock row holds (2,147,483,647 units). */
  'stock.too_large': { sku: string; warehouse: string };
  /** The warehouse's stock is kept by an inventory or 3PL integration. */
  'stock.controlled_by_app': { warehouse: string };
  /** A count older than the one already recorded for that SKU and warehouse. */
  'stock.newer_count_recorded': { sku: string; warehouse: string };
  /** A warehouse named in a stock change is not the account's. */
  'stock.unknown_warehouse': Record<string, never>;
  /** An order the account does not have (another account's answers the same). */
  'order.not_found': Record<string, never>;
  /** An order's line named by the form is not on the order (a stale page). */
  'order.not_a_line': Record<string, never>;
  /** More units to cancel on a line than it still owes. */
  'order.cancel_too_many': { sku: string; asked: number; left: number };
  /** Units shipped or cancelled since the page was read. */
  'order.changed_meanwhile': Record<string, never>;
  /** Nothing left to cancel on the order. */
  'order.nothing_to_cancel': Record<string, never>;
  /** Re-route to the warehouse the units are already in. */
  'order.reroute_same_warehouse': Record<string, never>;
  /** Re-route to a warehouse the account does not have. */
  'order.reroute_unknown_warehouse': Record<string, never>;
  /** Re-route to a warehouse the channel fulfils, for an order the channel does not fulfil. */
  'order.reroute_channel_warehouse': { warehouse: string };
  /** Re-route to a warehouse whose shipper rejected the order. */
  'order.reroute_rejected_there': { warehouse: string };
  /** More units to re-route than the line owes in that warehouse. */
  'order.reroute_too_many': { sku: string; warehouse: string; asked: number; owed: number };
  /** The target warehouse has not enough available units. */
  'order.reroute_not_enough_stock': { sku: string; warehouse: string; asked: number };
  /** Mark paid on an order not awaiting payment. */
  'order.not_awaiting_payment': { status: string };
  /** More units to return than were shipped (and not already on a return). */
  'order.return_too_many': { sku: string; asked: number; left: number };
  /** A money amount that is not a decimal number. */
  'order.amount_not_a_number': Record<string, never>;
  /** A refund of zero or less. */
  'order.amount_not_positive': Record<string, never>;
  /** A refund or cancellation without its reason. */
  'order.reason_missing': Record<string, never>;
  /** A return closed without being received cannot be received. */
  'order.return_closed': Record<string, never>;
  /** Units put back in a warehouse the account does not have. */
  'order.restock_unknown_warehouse': Record<string, never>;
  /** Units put back in a warehouse whose stock an integration keeps. */
  'order.restock_controlled_by_app': { warehouse: string };
  /** A return received before, with another restock choice. */
  'order.return_received_otherwise': { restockedIn: string | null };
  /** Units of a SKU the catalog does not have cannot go back in stock. */
  'order.restock_not_in_catalog': { sku: string };
  /** A return that is not on the order. */
  'order.return_not_found': Record<string, never>;
  /** An alert that is not (or no longer) the account's. */
  'order.alert_not_found': Record<string, never>;
  /** Units received beyond what is still expected on an inbound shipment's lines. */
  'inbound.over_receipt': { lines: { sku: string; left: number; asked: number }[] };
  /** A receipt on a shipment that is not on its way (cancelled, or received in full). */
  'inbound.not_receivable': { status: string };
  /** Cancelling a shipment that has units received, or is cancelled already. */
  'inbound.not_cancellable': { status: string };
  /** Marking shipped a shipment that has units received, or is cancelled. */
  'inbound.not_shippable': { status: string };
  /** Receiving into a warehouse whose stock an integration keeps. */
  'inbound.controlled_by_app': { warehouse: string };
  /** An import asked both to only fill blanks and to clear values with blank cells. */
  'report.insert_only_with_overwrite': Record<string, never>;
  /** A kit or a component SKU that is not in the catalog. */
  'kit.unknown_sku': { sku: string };
  /** A kit that is itself a component of another kit. */
  'kit.is_a_component': { sku: string };
  /** A component that is itself a kit. */
  'kit.component_is_a_kit': { sku: string };
  /** A vendor name the account already uses (names compare case-insensitively). */
  'vendor.name_taken': { name: string };
  /** Mapping a warehouse without the partner's id for it. */
  'app.partner_id_missing': Record<string, never>;
  /** A partner's warehouse id the app already uses for another warehouse. */
  'app.partner_id_taken': { partnerId: string };
  /** A warehouse the account does not have. */
  'app.unknown_warehouse': Record<string, never>;
  /** A warehouse already mapped to that app. */
  'app.already_mapped': Record<string, never>;
  /** A warehouse whose stock another inventory or 3PL app keeps. */
  'app.stock_kept_elsewhere': Record<string, never>;
  /** A change to an app uninstalled meanwhile. */
  'app.uninstalled': Record<string, never>;
  /** Unmapping a warehouse the app does not use (any more). */
  'app.not_mapped': Record<string, never>;
  /** A call to the partner (status check, ingestion request, disconnect notice) of an app without a callback URL. */
  'app.no_callback_url': Record<string, never>;
  /** Subscribing an app to nudges while it has no callback URL. */
  'app.subscriptions_need_url': Record<string, never>;
  /** Applying an ingestion plan that is not ready to apply (still open, being built, applied…). */
  'ingestion.not_applicable': { status: string; done: number; total: number };
  /** Inviting an email that already has a console user. */
  'user.email_taken': { email: string };
  /** Retry of a job that has not given up. */
  'job.not_dead': { status: string };
}

export type RefusalCode = keyof RefusalFacts;
export type Refusal = { [K in RefusalCode]: { code: K; facts: RefusalFacts[K] } }[RefusalCode];

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly violations: FieldViolation[];
  /** Why, for the console's words (the API renders `message` and `violations` only). */
  refusal: Refusal | null = null;

  constructor(code: ErrorCode, message: string, violations: FieldViolation[] = []) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.violations = violations;
  }

  /** The same error, carrying why it happened: `throw conflict('…').because('job.not_dead', { status })`. */
  because<K extends RefusalCode>(code: K, facts: RefusalFacts[K]): this {
    this.refusal = { code, facts } as Refusal;
    return this;
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

/**
 * A state the code itself should never reach (a programming error, such as an illegal status move): the
 * edge logs it and answers the fixed INTERNAL message, never this one.
 */
export const internalError = (message: string) => new AppError('INTERNAL', message);

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
