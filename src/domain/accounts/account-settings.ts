import type { Db } from '../../db/tx.js';
import { invalidFields, notFound, type FieldViolation } from '../errors.js';

/**
 * Account settings (resolutions §10), set by the operator: the console shows the account's money in
 * `currencyCode` and its dates in `timeZone`. `personalDataRetentionDays` is how long buyers' personal data is
 * kept after an order closes (null: kept), acted on by the retention sweep (src/domain/personal-data/retention-sweep.ts).
 */
export interface AccountSettings {
  currencyCode: string;
  timeZone: string;
  personalDataRetentionDays: number | null;
}

export interface AccountWithSettings extends AccountSettings {
  accountId: number;
  name: string;
}

export type AccountSettingsInput = Partial<AccountSettings>;

export const DEFAULT_ACCOUNT_SETTINGS: Readonly<AccountSettings> = Object.freeze({
  currencyCode: 'USD',
  timeZone: 'UTC',
  personalDataRetentionDays: 30,
});

export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 3650;

/** ISO 4217 codes the runtime can format (Node's ICU list: current codes, no funds or test codes). */
export const CURRENCY_CODES: readonly string[] = Object.freeze([...Intl.supportedValuesOf('currency')]);
const CURRENCY_SET = new Set(CURRENCY_CODES);

/** Canonical IANA zone names the runtime knows, plus "UTC" (ICU's list leaves it out), sorted. */
export const TIME_ZONES: readonly string[] = Object.freeze([...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])].sort());
const TIME_ZONE_SET = new Set(TIME_ZONES);

// An IANA name as the database writes it: capitalised area and location ("America/Argentina/Buenos_Aires",
// "Etc/GMT+5", "EST"). ICU matches names case-insensitively; a stored name keeps the database's spelling.
const IANA_SPELLING = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Z0-9][A-Za-z0-9_+-]*)*$/;

export function currencyCodeProblem(value: unknown): string | null {
  if (typeof value === 'string' && CURRENCY_SET.has(value)) return null;
  return 'must be an ISO 4217 currency code in capitals, such as USD, EUR or GBP';
}

/**
 * A canonical name from the runtime's list, or another name of the time zone database the runtime knows: an
 * alias (Asia/Kolkata for ICU's Asia/Calcutta, Europe/Kyiv, Etc/UTC) or a fixed offset zone (Etc/GMT+5).
 */
export function timeZoneProblem(value: unknown): string | null {
  const bad = 'must be an IANA time zone name such as UTC, America/New_York or Europe/Berlin';
  if (typeof value !== 'string') return bad;
  if (TIME_ZONE_SET.has(value)) return null;
  if (value.length > 64 || !IANA_SPELLING.test(value)) return bad;
  try {
    // Throws a RangeError for a zone the runtime does not know.
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone ? null : bad;
  } catch {
    return bad;
  }
}

export function retentionDaysProblem(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value === 'number' && Number.isInteger(value) && value >= MIN_RETENTION_DAYS && value <= MAX_RETENTION_DAYS) return null;
  return `must be a whole number of days from ${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS}, or null to keep personal data`;
}

/** Every problem of a change, named by its field, so one answer lists them all. */
export function settingsProblems(input: AccountSettingsInput): FieldViolation[] {
  const out: FieldViolation[] = [];
  const check = (field: keyof AccountSettings, problem: (v: unknown) => string | null) => {
    if (input[field] === undefined) return;
    const description = problem(input[field]);
    if (description) out.push({ field, description });
  };
  check('currencyCode', currencyCodeProblem);
  check('timeZone', timeZoneProblem);
  check('personalDataRetentionDays', retentionDaysProblem);
  return out;
}

const COLUMNS = ['id', 'name', 'currency_code', 'time_zone', 'personal_data_retention_days'] as const;

function view(row: { id: number; name: string; currency_code: string; time_zone: string; personal_data_retention_days: number | null }): AccountWithSettings {
  return {
    accountId: row.id,
    name: row.name,
    currencyCode: row.currency_code,
    timeZone: row.time_zone,
    // pg may answer an integer column as a number already; Number() also covers a driver that does not.
    personalDataRetentionDays: row.personal_data_retention_days === null ? null : Number(row.personal_data_retention_days),
  };
}

export async function getAccountWithSettings(db: Db, accountId: number): Promise<AccountWithSettings> {
  const row = await db.selectFrom('accounts').select(COLUMNS).where('id', '=', accountId).executeTakeFirst();
  if (!row) throw notFound(`account ${accountId} not found`);
  return view(row);
}

/**
 * Changes the settings given (absent ones stay). Every value is checked before anything is written: one bad
 * field refuses the whole change.
 */
export async function updateAccountSettings(db: Db, accountId: number, input: AccountSettingsInput): Promise<AccountWithSettings> {
  const problems = settingsProblems(input);
  if (problems.length > 0) throw invalidFields(problems);
  const set: { currency_code?: string; time_zone?: string; personal_data_retention_days?: number | null } = {};
  if (input.currencyCode !== undefined) set.currency_code = input.currencyCode;
  if (input.timeZone !== undefined) set.time_zone = input.timeZone;
  if (input.personalDataRetentionDays !== undefined) set.personal_data_retention_days = input.personalDataRetentionDays;
  if (Object.keys(set).length === 0) return getAccountWithSettings(db, accountId);
  const row = await db.updateTable('accounts').set(set).where('id', '=', accountId).returning(COLUMNS).executeTakeFirst();
  if (!row) throw notFound(`account ${accountId} not found`);
  return view(row);
}
