import type { Db } from '../../db/tx.js';
import { describeApp, setCallbackBaseUrl, type AppView, type RegisterAppOptions } from '../accounts/apps.js';
import { invalidField, notFound } from '../errors.js';
import { EVENT_TYPES, type EventType } from './nudges.js';

export interface AppCallbacksView extends AppView {
  /** The extension nudges the app subscribed to (docs/partners/callback-nudges.md). */
  eventTypes: EventType[];
}

export interface UpdateAppInput {
  /** Absent: unchanged; null: removed. */
  callbackBaseUrl?: string | null;
  /** Absent: unchanged; otherwise the whole new list (empty unsubscribes from everything). */
  eventTypes?: readonly string[];
}

export async function eventTypesOf(db: Db, appId: number): Promise<EventType[]> {
  const rows = await db.selectFrom('app_event_subscriptions').select('event_type').where('app_id', '=', appId).execute();
  const subscribed = new Set(rows.map((r) => r.event_type));
  // In the documented order, so the view is stable whatever order they were given in.
  return EVENT_TYPES.filter((t) => subscribed.has(t));
}

export async function describeAppCallbacks(db: Db, appId: number): Promise<AppCallbacksView> {
  const view = await describeApp(db, appId);
  return { ...view, eventTypes: await eventTypesOf(db, appId) };
}

function requireEventTypes(values: readonly string[]): EventType[] {
  const unknown = values.filter((v) => !(EVENT_TYPES as readonly string[]).includes(v));
  if (unknown.length > 0) throw invalidField('eventTypes', `unknown event type ${unknown.join(', ')}; allowed: ${EVENT_TYPES.join(', ')}`);
  return [...new Set(values as readonly EventType[])];
}

/**
 * PATCH /admin/apps/{appId} (DESIGN "Operator API"): the callback base URL under the registration rules, and
 * the nudge subscriptions, replaced as a whole. An app with subscriptions must keep a base URL: a nudge
 * with nowhere to go would only fill the delivery log with dead rows.
 */
export async function updateAppCallbacks(tx: Db, appId: number, input: UpdateAppInput, now: Date, options: RegisterAppOptions = {}): Promise<AppCallbacksView> {
  const eventTypes = input.eventTypes === undefined ? undefined : requireEventTypes(input.eventTypes);
  const app = await tx.selectFrom('apps').select(['id', 'callback_base_url']).where('id', '=', appId).executeTakeFirst();
  if (!app) throw notFound(`app ${appId} not found`);
  const baseUrl = input.callbackBaseUrl === undefined ? app.callback_base_url : input.callbackBaseUrl;
  const subscribed = eventTypes ?? (await eventTypesOf(tx, appId));
  if (subscribed.length > 0 && !baseUrl) {
    throw invalidField('eventTypes', 'the app has no callbackBaseUrl: set one to subscribe, or unsubscribe (eventTypes: []) to remove it').because('app.subscriptions_need_url', {});
  }
  if (input.callbackBaseUrl !== undefined) await setCallbackBaseUrl(tx, appId, input.callbackBaseUrl, options);
  if (eventTypes !== undefined) {
    await tx.deleteFrom('app_event_subscriptions').where('app_id', '=', appId).execute();
    if (eventTypes.length > 0) {
      await tx
        .insertInto('app_event_subscriptions')
        .values(eventTypes.map((t) => ({ app_id: appId, event_type: t, created_at: now.toISOString() })))
        .execute();
    }
  }
  return describeAppCallbacks(tx, appId);
}
