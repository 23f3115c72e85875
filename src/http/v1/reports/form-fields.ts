/** Report fields that are booleans or integers; a form sends every field as text. */
const BOOLEAN_FIELDS = new Set(['isExport', 'overwriteWithBlank', 'createNewProducts', 'insertOnly', 'activeOnly', 'includeHeader', 'exportForExcel', 'headersOnly']);
const INTEGER_FIELDS = new Set(['templateId', 'integrationId']);

/**
 * Form fields as the JSON body would carry them, so one schema validates both: "true"/"false" become
 * booleans and digits integers; anything else stays text and the schema names the field. An empty field
 * is no field (HTML forms send empty inputs).
 */
export function formFields(fields: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value === '') continue;
    if (BOOLEAN_FIELDS.has(name) && /^(true|false)$/i.test(value.trim())) out[name] = value.trim().toLowerCase() === 'true';
    else if (INTEGER_FIELDS.has(name) && /^\d{1,15}$/.test(value.trim())) out[name] = Number(value.trim());
    else out[name] = value;
  }
  return out;
}
