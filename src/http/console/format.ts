import { decimalPlaces, isPlainDecimal } from '../../lib/decimal.js';

/**
 * How the console writes dates and money (resolutions §10): a seller's pages in the account's time zone and
 * currency (the session carries the settings: `user.settings` of sellerOf), the operator's pages in UTC.
 * Both take the settings object as their last argument, so a page passes the same `user.settings` to each.
 */

/** What the formatters read of the account settings (AccountSettings fits). */
export interface DisplaySettings {
  currencyCode: string;
  timeZone: string;
}

export const UTC_DISPLAY: Readonly<DisplaySettings> = Object.freeze({ currencyCode: 'USD', timeZone: 'UTC' });

const NONE = '–';

// English locales whose short zone names ICU knows (en-US: EST/PDT; en-GB: CET/BST; en-AU: AEST; en-IN: IST).
// A zone none of them names shows its offset ("GMT+9"), which is unambiguous.
const NAME_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN'] as const;
const PROBES = [new Date('2026-01-15T12:00:00Z'), new Date('2026-07-15T12:00:00Z')];
const OFFSET_NAME = /^(?:GMT|UTC)[+−-]/;

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The formatter of a zone, in the first English locale that names it (both in winter and summer). */
function dateFormatFor(timeZone: string): Intl.DateTimeFormat {
  let format = dateFormats.get(timeZone);
  if (format) return format;
  const options: Intl.DateTimeFormatOptions = {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  };
  const candidates = NAME_LOCALES.map((locale) => new Intl.DateTimeFormat(locale, options));
  format =
    candidates.find((f) => PROBES.every((d) => !OFFSET_NAME.test(f.formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT+'))) ??
    candidates[0]!;
  // Zones are a few hundred at most; the map stays small.
  dateFormats.set(timeZone, format);
  return format;
}

/**
 * An ISO timestamp as "2026-11-23 10:00 CET" in the given zone (UTC when none is given: the operator's
 * pages). An absent value is "–"; a value that is not a timestamp is shown as it is.
 */
export function formatTs(iso: string | null | undefined, settings?: Pick<DisplaySettings, 'timeZone'> | null): string {
  if (!iso) return NONE;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const timeZone = settings?.timeZone ?? 'UTC';
  if (timeZone === 'UTC') {
    const utc = new Date(ms).toISOString();
    return `${utc.slice(0, 10)} ${utc.slice(11, 16)} UTC`;
  }
  let format: Intl.DateTimeFormat;
  try {
    format = dateFormatFor(timeZone);
  } catch {
    // A zone this runtime does not know (a setting written by a newer one): UTC rather than no page.
    return formatTs(iso);
  }
  const parts: Record<string, string> = {};
  for (const p of format.formatToParts(ms)) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${parts.timeZoneName ?? timeZone}`;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormatFor(currencyCode: string, decimals: number): Intl.NumberFormat {
  const key = `${currencyCode}:${decimals}`;
  let format = moneyFormats.get(key);
  if (format) return format;
  const standard = new Intl.NumberFormat('en-US', { style: 'currency', currency: currencyCode }).resolvedOptions().maximumFractionDigits ?? 2;
  // Never round away what was stored: 12.345 stays 12.345, while 37.5 reads 37.50 in a 2-digit currency.
  format = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currencyCode,
    minimumFractionDigits: standard,
    maximumFractionDigits: Math.max(standard, decimals),
  });
  if (moneyFormats.size < 2000) moneyFormats.set(key, format);
  return format;
}

/**
 * A decimal amount (the service keeps money as decimal strings) in the account's currency: "$37.50",
 * "€1,250.00", "¥1,200". Formatted from the string itself (never through a float), with every digit kept.
 * An absent amount is "–"; something that is not a decimal number is shown as it is.
 */
export function formatMoney(amount: string | number | null | undefined, settings: Pick<DisplaySettings, 'currencyCode'> | null | undefined): string {
  if (amount === null || amount === undefined || amount === '') return NONE;
  const text = String(amount).trim();
  if (!isPlainDecimal(text)) return text;
  const decimals = Math.min(decimalPlaces(text), 20);
  const currencyCode = settings?.currencyCode ?? UTC_DISPLAY.currencyCode;
  try {
    // NumberFormat formats a numeric string exactly (Intl.NumberFormat v3, Node 20): no float on the way.
    return moneyFormatFor(currencyCode, decimals).format(text as unknown as number);
  } catch {
    return `${text} ${currencyCode}`;
  }
}
