import type { RefusalSentences } from '../../refusal-sentences.js';

/** The kits and vendors pages' refusals in the seller's words. */

export const KIT_REFUSALS: RefusalSentences<'kit'> = {
  'kit.unknown_sku': ({ sku }) => `${sku} is not in your catalog. Add it under Catalog (or stock it under Inventory) first, then make the kit.`,
  'kit.is_a_component': ({ sku }) => `${sku} is already a component of another kit, and a kit cannot go inside a kit. Remove it from that kit first, or pick another SKU.`,
  'kit.component_is_a_kit': ({ sku }) => `${sku} is a kit itself, and a kit cannot go inside a kit. List its components instead.`,
};

export const VENDOR_REFUSALS: RefusalSentences<'vendor'> = {
  'vendor.name_taken': ({ name }) => `You already have a vendor named "${name}" (capitals do not count). Pick another name, or open that vendor.`,
};
