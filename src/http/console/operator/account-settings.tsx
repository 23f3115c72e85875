import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import {
  CURRENCY_CODES,
  MAX_RETENTION_DAYS,
  MIN_RETENTION_DAYS,
  TIME_ZONES,
  updateAccountSettings,
  type AccountSettingsInput,
  type AccountWithSettings,
} from '../../../domain/accounts/account-settings.js';
import { invalidFields, isAppError } from '../../../domain/errors.js';
import { UpdateAccountBody } from '../../admin/update-account.js';
import { Field, PostForm, Select, field, formAction } from '../components.js';
import { checkForm, formBool, formInt, type FormWords } from '../form-check.js';
import { formatTs } from '../format.js';
import { idParam } from '../params.js';
import { operatorOf } from '../session.js';

/**
 * The operator's form for an account's settings (resolutions §10): the same domain function and checks as
 * PATCH /admin/accounts/{accountId}, with the fields named as on the form.
 */

const LABELS: Record<string, string> = {
  currencyCode: 'Currency',
  timeZone: 'Time zone',
  personalDataRetentionDays: "Keep buyers' personal data for",
};

// The API's wording says "null"; the form has a checkbox for it.
const FORM_DESCRIPTIONS: Record<string, string> = {
  personalDataRetentionDays: `must be a whole number of days from ${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS}, or tick "Keep buyers' personal data"`,
};

let currencyNames: Intl.DisplayNames | null | undefined;

function currencyName(code: string): string {
  if (currencyNames === undefined) {
    try {
      currencyNames = new Intl.DisplayNames(['en'], { type: 'currency' });
    } catch {
      currencyNames = null;
    }
  }
  const name = currencyNames?.of(code);
  return name && name !== code ? `${code} – ${name}` : code;
}

// Built once: 160-odd currencies and 400-odd zones, the same for every account.
let currencyOptions: [string, string][] | undefined;
const currencyChoices = () => (currencyOptions ??= CURRENCY_CODES.map((c): [string, string] => [c, currencyName(c)]));

/** The zone list, plus the account's own value when it is an alias the list spells otherwise (Asia/Kolkata). */
function zoneChoices(current: string): readonly string[] {
  return TIME_ZONES.includes(current) ? TIME_ZONES : [current, ...TIME_ZONES];
}

export function AccountSettingsForm({ account, action, csrfToken, now }: { account: AccountWithSettings; action: string; csrfToken: string; now: Date }) {
  const keep = account.personalDataRetentionDays === null;
  return (
    <PostForm action={action} csrfToken={csrfToken} class="stack">
      <p class="muted">What the seller sees in the console: money in this currency, dates in this time zone.</p>
      <Select label="Currency" name="currencyCode" options={currencyChoices()} value={account.currencyCode} />
      <Select label="Time zone" name="timeZone" options={zoneChoices(account.timeZone)} value={account.timeZone} />
      <p class="muted" safe>{`Now in this zone: ${formatTs(now.toISOString(), account)}`}</p>
      <Field
        label="Keep buyers' personal data for (days after an order is done)"
        name="personalDataRetentionDays"
        type="number"
        min={String(MIN_RETENTION_DAYS)}
        step="1"
        value={account.personalDataRetentionDays}
        hint={`${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS} days. Recorded for the retention policy; orders are not yet redacted automatically.`}
      />
      <label>
        <input type="checkbox" name="keepPersonalData" value="yes" checked={keep} />
        <span>Keep buyers' personal data (no retention limit)</span>
      </label>
      <button type="submit">Save settings</button>
    </PostForm>
  );
}

/** The settings body's fields as the form labels them; the days box has one sentence for any problem. */
const SETTINGS_WORDS: FormWords = {
  currencyCode: LABELS.currencyCode!,
  timeZone: LABELS.timeZone!,
  personalDataRetentionDays: { says: `${LABELS.personalDataRetentionDays!}: ${FORM_DESCRIPTIONS.personalDataRetentionDays!}` },
};

/**
 * The form as PATCH /admin/accounts/{accountId}'s body, checked by its schema; the domain then checks the
 * codes and zones. Every field is on the form: a blank number of days without the box ticked is no choice.
 */
function settingsFromForm(body: unknown): AccountSettingsInput {
  const days = formBool(field(body, 'keepPersonalData')) ? null : (formInt(field(body, 'personalDataRetentionDays')) ?? '');
  const input = { currencyCode: field(body, 'currencyCode').trim(), timeZone: field(body, 'timeZone').trim(), personalDataRetentionDays: days };
  return checkForm(UpdateAccountBody, input, SETTINGS_WORDS);
}

export function registerOperatorAccountSettings(scope: FastifyInstance, deps: Deps, accountsPath: string): void {
  scope.post('/operator/accounts/:accountId/settings', { schema: { hide: true } }, async (request, reply) => {
    if (!operatorOf(request, reply)) return reply;
    const accountId = idParam(request, 'accountId');
    return formAction(deps, request, reply, `${accountsPath}/${accountId}`, 'Settings saved.', async () => {
      try {
        const account = await withTx(deps.db.db, (tx) => updateAccountSettings(tx, accountId, settingsFromForm(request.body)));
        const retention = account.personalDataRetentionDays === null ? 'kept' : `kept ${account.personalDataRetentionDays} days`;
        return `Settings saved: ${account.currencyCode}, ${account.timeZone}, buyers' personal data ${retention}.`;
      } catch (error) {
        // The API names its fields; the form names them as its labels do.
        if (isAppError(error) && error.violations.length > 0) {
          throw invalidFields(error.violations.map((v) => ({ field: LABELS[v.field] ?? v.field, description: FORM_DESCRIPTIONS[v.field] ?? v.description })));
        }
        throw error;
      }
    });
  });
}
