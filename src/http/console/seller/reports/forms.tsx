import type { PropsWithChildren } from '@kitajs/html';
import { IMPORT_TYPE_TITLES } from '../../../../domain/reports/imports/import-guides.js';
import { EXPORT_TYPES } from '../../../../domain/reports/model.js';
import { Field, PostForm, Select } from '../../components.js';

/** A checkbox that sends "true" (formFields reads it as the API's boolean); unchecked sends nothing (the default). */
export function Check({ name, label }: { name: string; label: string }) {
  return (
    <label>
      <span>
        <input type="checkbox" name={name} value="true" /> <span safe>{label}</span>
      </span>
    </label>
  );
}

/** The export form: the options POST /v1/report takes for an export. */
export function ExportForm({ csrfToken }: { csrfToken: string }) {
  return (
    <PostForm action="/console/reports/export" csrfToken={csrfToken} class="stack">
      <Select label="Export" name="exportType" options={[...EXPORT_TYPES]} />
      <Field label="Label" name="label" hint="optional, your name for the report" />
      <Check name="activeOnly" label="Active products only" />
      <Select label="Header row" name="includeHeader" options={[['', 'Yes (default)'], ['false', 'No']]} />
      <Check name="headersOnly" label="Header row only" />
      <Check name="exportForExcel" label="Excel workbook (.xlsx) instead of CSV" />
      <Field label="Delimiter" name="delimiter" hint={'optional: "," by default; "tab" for a tab'} />
      <Field label="Filter formula" name="filter" hint="optional (see the partner guide, Report filters)" />
      <button type="submit">Create export</button>
    </PostForm>
  );
}

/**
 * An upload form: multipart, so its CSRF token rides in the action URL (the body is read by the handler,
 * after the CSRF check).
 */
export function UploadForm({ action, csrfToken, submit, children }: PropsWithChildren<{ action: string; csrfToken: string; submit: string }>) {
  return (
    <form method="post" action={`${action}?_csrf=${encodeURIComponent(csrfToken)}`} enctype="multipart/form-data" class="stack">
      <label>
        <span>File</span>
        <span class="hint">CSV, UTF-8</span>
        <input type="file" name="file" accept=".csv,text/csv" required />
      </label>
      {children}
      <button type="submit" safe>
        {submit}
      </button>
    </form>
  );
}

/** Import types in a seller's words; the value sent is the API's type. */
const IMPORT_TYPE_OPTIONS: [string, string][] = Object.entries(IMPORT_TYPE_TITLES);

/** The import options POST /v1/report takes for an import (and the validation for its definition). */
export function ImportOptions() {
  return (
    <>
      <Select label="Import type" name="importType" options={IMPORT_TYPE_OPTIONS} />
      <p class="hint">
        <a href="/console/reports/formats">Which columns each type takes</a>, with templates and samples.
      </p>
      <Field label="Template id" name="templateId" hint="FullProductData only: the saved column mapping" />
      <Field label="Custom store id" name="integrationId" hint="Orders only (default: the default store)" />
      <Check name="createNewProducts" label="Create SKUs that do not exist" />
      <Check name="overwriteWithBlank" label="A blank cell clears the value" />
      <Check name="insertOnly" label="Only fill blank data, never overwrite" />
      <Field label="Delimiter" name="delimiter" hint={'optional: "," by default; "tab" for a tab'} />
    </>
  );
}
