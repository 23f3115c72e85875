/**
 * The words of the service's prefix searches (orders: src/domain/orders/order-search.ts; products:
 * src/domain/catalog/product-search.ts): how a text becomes terms and a search word a range of terms. Both
 * areas use it and catalog sits below orders, so it lives with the shared domain files.
 */

/** Longer words are cut (the same cut applies to search words, so a long one still matches). */
export const MAX_TERM_LENGTH = 64;
const NOT_WORD = /[^\p{L}\p{N}]+/u;
const MARKS = /\p{M}+/gu;

/** The words of a text as terms: lower case, accents dropped ("José" → "jose"), split at anything else. */
export function searchWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(MARKS, '')
    .split(NOT_WORD)
    .filter((w) => w !== '')
    .map((w) => w.slice(0, MAX_TERM_LENGTH));
}

/** The range of terms a search word starts: [word, word + the highest code point). */
export function termRange(word: string): [string, string] {
  return [word, `${word}\u{10FFFF}`];
}
