import { invalidField } from '../../errors.js';

/** The import options of document 2.9 that cannot go together; checked for a report and a validation alike. */
export function checkImportOptions(options: { insertOnly?: boolean | null; overwriteWithBlank?: boolean | null }): void {
  if (options.insertOnly === true && options.overwriteWithBlank === true) {
    throw invalidField('insertOnly', 'insertOnly only fills blank data, so it cannot be combined with overwriteWithBlank').because('report.insert_only_with_overwrite', {});
  }
}
