import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { invalidField, isAppError } from '../../../domain/errors.js';
import {
  V1_LISTING_STATUSES,
  applyV1ListingStatus,
  v1ErrorsToChannelErrors,
  type V1ErrorEntry,
  type V1ListingStatus,
  type V1ListingStatusEntry,
} from '../../../domain/listings/variant-status.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { MAX_V1_STATUSES, V1ListingStatusBody, V1ListingStatusResponse, type V1StatusEntry } from '../../schemas/submissions.js';
import { V1_LISTING_ROUTE_CONFIG } from './route-config.js';

const text = (raw: unknown) => (typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '');

/** Checks one entry (2.2: listing_id, sku, status and listing_url required); `path` prefixes field names. */
function readEntry(raw: V1StatusEntry, path: string): V1ListingStatusEntry {
  const at = (name: string) => `${path}${name}`;
  const listingId = text(raw.listing_id);
  if (listingId === '') throw invalidField(at('listing_id'), 'is required');
  if (raw.sku === undefined || raw.sku === '') throw invalidField(at('sku'), 'is required');
  if (raw.status === undefined) throw invalidField(at('status'), `is required: ${V1_LISTING_STATUSES.join(', ')}`);
  const status = V1_LISTING_STATUSES.find((s) => s === raw.status);
  if (!status) throw invalidField(at('status'), `must be one of ${V1_LISTING_STATUSES.join(', ')}, got "${raw.status}"`);
  if (raw.listing_url === undefined) throw invalidField(at('listing_url'), 'is required ("" when the channel has no page)');
  return {
    listingId,
    sku: raw.sku,
    status: status satisfies V1ListingStatus,
    listingUrl: raw.listing_url,
    errors: v1ErrorsToChannelErrors(at('errors'), (raw.errors ?? []) as V1ErrorEntry[]),
  };
}

export function registerV1ListingStatus(app: App, deps: Deps) {
  app.post(
    '/v1/listing/status',
    {
      config: V1_LISTING_ROUTE_CONFIG,
      schema: {
        tags: ['v1 listings'],
        summary: "Report listings' status on the channel",
        description:
          'One status entry (document 2.2) or {statuses: [1 to ' +
          `${MAX_V1_STATUSES} entries]}. Entry: listing_id (the service's listing id), sku (a variant SKU of that ` +
          'listing), status (PUBLISHED, UNPUBLISHED, SUPPRESSED), listing_url, errors[] {severity, classification, ' +
          'affected_attributes, error, message (required unless error is given)}. From any state the variant takes ' +
          'the status sent (3.2): STANDARD_STATUS_<status> in the v2 view, listing_url as listingUrl; the errors ' +
          'replace the variant\'s earlier v1 status errors (submissionType "v1_listing_status"): severity ERROR, ' +
          'WARNING or NOTICE maps to the v2 severity (other text to SEVERITY_UNSPECIFIED, kept in the message), type is ' +
          'the v2 type the error or classification names (else TYPE_OTHER). A storefront token reaches its own ' +
          "storefront's listings only; other tokens the whole account. Single form: an unknown listing or sku is a 404, " +
          'bad input a 400. Batch form: 200 with one result per entry, each with success and errorMessage; a failed ' +
          'entry changes nothing. Response {results: [{listing_id, sku, status}]}.',
        body: V1ListingStatusBody,
        response: v1Responses({ 200: V1ListingStatusResponse }, [400, 401, 403, 404, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const storefrontId = principal.storefrontId;
      const now = deps.clock.now();
      const body = request.body;
      const apply = (entry: V1ListingStatusEntry) =>
        withTx(deps.db.db, (tx) => applyV1ListingStatus(tx, principal.accountId, storefrontId, entry, now));

      if (body.statuses === undefined) {
        const entry = readEntry(body, '');
        await apply(entry);
        return { results: [{ listing_id: entry.listingId, sku: entry.sku, status: entry.status }] };
      }
      const results = [];
      for (const [i, raw] of body.statuses.entries()) {
        const echo = { listing_id: text(raw.listing_id), sku: text(raw.sku), status: text(raw.status) };
        try {
          await apply(readEntry(raw, `statuses[${i}].`));
          results.push({ ...echo, success: true, errorMessage: '' });
        } catch (error) {
          if (!isAppError(error)) throw error;
          results.push({ ...echo, success: false, errorMessage: error.message });
        }
      }
      return { results };
    },
  );
}
