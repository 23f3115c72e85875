import { LOW_STOCK_MAX } from '../../../../domain/inventory/low-stock.js';
import type { RefusalSentences } from '../../refusal-sentences.js';

/** The stock pages' refusals in the seller's words (never the API's delta_quantity or installation ids). */

const units = (n: number) => `${n} unit${n === 1 ? '' : 's'}`;

/** What the low-stock alert box takes, said for any value it does not. */
export const LOW_STOCK_RULE = `The low-stock alert must be a whole number from 0 to ${LOW_STOCK_MAX.toLocaleString('en-US')}, or empty for no alert.`;

/** Why a warehouse is not in the adjust form: its stock is kept by an app. */
export function controlledStockNote(warehouse: string): string {
  return `${warehouse}: read-only here, because an inventory or 3PL app connected to it keeps its stock. Change its stock in that app.`;
}

export const STOCK_REFUSALS: RefusalSentences<'stock'> = {
  'stock.would_go_negative': ({ sku, warehouse, units: n }) =>
    `${warehouse} does not have ${units(n)} of ${sku} available to remove. Remove fewer units, or count what is on the shelf and choose "Set on hand".`,
  'stock.too_large': ({ sku, warehouse }) =>
    `That would put more than 2,147,483,647 units of ${sku} in ${warehouse}, more than the stock can record. Check the number and try again.`,
  'stock.newer_count_recorded': ({ sku, warehouse }) =>
    `A newer count of ${sku} in ${warehouse} is already recorded, so this one was not used. Reload the page to see the stock as it is now.`,
  'stock.controlled_by_app': ({ warehouse }) =>
    `The stock of ${warehouse} is kept by the inventory or 3PL app connected to it, so it cannot be changed here. Change it in that app, or pick another warehouse.`,
  'stock.unknown_warehouse': () => 'That warehouse is not one of yours. Pick a warehouse from the list.',
};
