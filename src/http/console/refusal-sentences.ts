import type { RefusalCode, RefusalFacts } from '../../domain/errors.js';

/**
 * The type of one console area's refusal sentences (stock-words.ts, order-words.ts, operator/words.ts…),
 * which refusal-words.ts joins. Apart from that file so the areas never import it back (no cycle).
 */

/** The sentences of one area: every code that starts with `<area>.`, each a function of its facts. */
export type RefusalSentences<Area extends string> = {
  [K in RefusalCode as K extends `${Area}.${string}` ? K : never]: (facts: RefusalFacts[K]) => string;
};
