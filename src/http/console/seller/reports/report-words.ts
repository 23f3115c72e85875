import type { RefusalSentences } from '../../refusal-sentences.js';

/**
 * The reports pages' words. An import's line errors are stored as the partner reads them in the report's
 * error file (no code to map: the message is the record), so the few that name an API option are said
 * here with the option's label on the console's form; the rest already speak of the file's own columns.
 */

const OPTION_LABELS: [RegExp, string][] = [
  [/send createNewProducts true to create it/g, 'tick "Create SKUs that do not exist" to create it'],
  [/; insertOnly leaves it unchanged/g, '; "Only fill blank data, never overwrite" leaves it unchanged'],
];

/** A line error's or a validation result's message, with the import options named as the form names them. */
export function importMessageText(message: string): string {
  return OPTION_LABELS.reduce((text, [api, label]) => text.replace(api, label), message);
}

export const REPORT_REFUSALS: RefusalSentences<'report'> = {
  'report.insert_only_with_overwrite': () =>
    '"Only fill blank data, never overwrite" and "A blank cell clears the value" cannot both be ticked: untick one of them.',
};
