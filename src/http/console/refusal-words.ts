import { isAppError, type AppError, type RefusalCode, type RefusalFacts } from '../../domain/errors.js';
import { JOB_REFUSALS, USER_REFUSALS } from './operator/words.js';
import { INBOUND_REFUSALS } from './seller/inventory/inbound-words.js';
import { KIT_REFUSALS, VENDOR_REFUSALS } from './seller/inventory/kit-vendor-words.js';
import { STOCK_REFUSALS } from './seller/inventory/stock-words.js';
import { INGESTION_REFUSALS } from './seller/listings/listing-words.js';
import { APP_REFUSALS } from './seller/apps/seller-words.js';
import { ORDER_REFUSALS } from './seller/orders/order-words.js';
import { REPORT_REFUSALS } from './seller/reports/report-words.js';

/**
 * The domain's refusals in the console's words. A refusal carries a stable code and its facts
 * (src/domain/errors.ts, RefusalFacts); each area of the console says its codes in one map next to its other
 * words (stock-words.ts, order-words.ts, operator/words.ts), and this file joins them. The API keeps
 * answering the partner's message: only what the console shows changes.
 *
 * The area files take their map's type from refusal-sentences.ts, so none of them imports this file back.
 */

// The compiler checks every code of the catalogue has its sentence here (a new code fails the build until
// an area says it).
const SENTENCES: { [K in RefusalCode]: (facts: RefusalFacts[K]) => string } = {
  ...STOCK_REFUSALS,
  ...INBOUND_REFUSALS,
  ...KIT_REFUSALS,
  ...VENDOR_REFUSALS,
  ...APP_REFUSALS,
  ...INGESTION_REFUSALS,
  ...ORDER_REFUSALS,
  ...REPORT_REFUSALS,
  ...JOB_REFUSALS,
  ...USER_REFUSALS,
};

/** The sentence for an error that says why it happened; null for one that does not (its message is shown). */
export function refusalSentence(error: AppError): string | null {
  if (error.refusal === null) return null;
  const { code, facts } = error.refusal;
  // The union of codes loses the pairing of a code with its facts; the catalogue's Refusal type keeps it.
  const say = SENTENCES[code] as (f: typeof facts) => string;
  return say(facts);
}

/**
 * The labels the console's forms give the API fields their checks name (a form's field and the API body's
 * share a name, so the schema's violation names the form's field): "purchase_order_number: must not be
 * blank" reads "Purchase order number: must not be blank".
 */
const FIELD_WORDS: Record<string, string> = {
  SKU: 'SKU',
  sku: 'SKU',
  warehouseId: 'Warehouse',
  quantity: 'Quantity',
  delta_quantity: 'Quantity',
  onhand_quantity: 'Quantity',
  binLocation: 'Bin location',
  vendor_id: 'Vendor',
  vendor_name: 'Vendor',
  destination_warehouse_id: 'Destination warehouse',
  purchase_order_number: 'Purchase order number',
  unit_item_cost: 'Unit cost',
  shipping_cost: 'Shipping cost',
  expected_delivery_date: 'Expected delivery date',
  tracking: 'Tracking number',
  carrier: 'Carrier',
  leadTimeDays: 'Lead time (days)',
  paymentWindowDays: 'Payment window (days)',
  components: 'Components',
  name: 'Name',
  email: 'Email',
  password: 'Password',
  role: 'Role',
  amount: 'Amount',
  reason: 'Reason',
  resolution: 'Resolution',
  overlapSeconds: 'Overlap (seconds)',
  importType: 'Import type',
  importDefinitionId: 'Import type',
  exportType: 'Export',
  templateId: 'Template id',
  integrationId: 'Custom store id',
  delimiter: 'Delimiter',
};

/** A violation's field as the form labels it: the last named part of its path, in words. */
export function fieldWords(field: string): string {
  const last = field.replace(/\[\d+\]/g, '').split('.').filter((p) => p !== '').pop() ?? field;
  if (FIELD_WORDS[last]) return FIELD_WORDS[last];
  // A field no form labels: its words, not its spelling (productId → "Product id").
  const words = last.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().trim();
  return words === '' ? 'This form' : words.charAt(0).toUpperCase() + words.slice(1);
}

/** What a console page shows for a domain refusal: the sentence, else the message, else its listed problems. */
export function refusalText(error: unknown): string {
  if (!isAppError(error)) return String(error);
  const sentence = refusalSentence(error);
  if (sentence !== null) return sentence;
  return error.violations.length > 0 ? error.violations.map((v) => `${fieldWords(v.field)}: ${v.description}`).join('; ') : error.message;
}
