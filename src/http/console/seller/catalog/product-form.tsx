import { fields, field } from '../../components.js';
import type { ProductView } from '../../../../domain/catalog/product-read.js';
import { FORM_FIELDS, type ProductFormInput, type ProductFormProblem } from '../../../../domain/reports/imports/product-form.js';
import { CsrfField } from '../../layout.js';

/**
 * The product form of the catalog pages (new product and a product's edit form): its labels, groups and
 * hints, reading the posted form, and the problems in the seller's words next to the fields they are about.
 * Values are checked by the domain (product-form.ts, the product import's rules); only the words live here.
 */

interface FieldWords {
  label: string;
  hint?: string;
}

/** Every form field's label, by its name in files (product-fields.ts); a test checks none is missing. */
export const FIELD_WORDS: Record<string, FieldWords> = {
  title: { label: 'Title' },
  description: { label: 'Description' },
  brand: { label: 'Brand' },
  manufacturer: { label: 'Manufacturer' },
  condition: { label: 'Condition', hint: 'for example New or Refurbished' },
  category: { label: 'Category' },
  tags: { label: 'Tags', hint: 'separated by commas' },
  price: { label: 'Price', hint: 'what you sell it for, like 12.50' },
  msrp: { label: 'List price (MSRP)' },
  map: { label: 'Minimum advertised price' },
  cost: { label: 'Cost', hint: 'what you pay for it' },
  upc: { label: 'UPC', hint: '12 digits' },
  ean: { label: 'EAN', hint: '13 digits' },
  isbn: { label: 'ISBN', hint: '10 or 13 digits' },
  gtin: { label: 'GTIN', hint: '8, 12, 13 or 14 digits' },
  standard_product_id: { label: 'Product ID', hint: 'the code channels list it under' },
  standard_product_id_type: { label: 'Product ID type' },
  mpn: { label: 'Manufacturer part number' },
  model_number: { label: 'Model number' },
  weight: { label: 'Weight' },
  weight_unit: { label: 'Weight unit' },
  length: { label: 'Length' },
  width: { label: 'Width' },
  height: { label: 'Height' },
  dimension_unit: { label: 'Size unit' },
  image_url: { label: 'Image URL', hint: 'the address of the product picture' },
};

const GROUPS: { legend: string; names: string[] }[] = [
  { legend: 'Product', names: ['title', 'brand', 'manufacturer', 'condition', 'category', 'tags', 'description'] },
  { legend: 'Prices', names: ['price', 'msrp', 'map', 'cost'] },
  { legend: 'Identifiers', names: ['upc', 'ean', 'isbn', 'gtin', 'standard_product_id', 'standard_product_id_type', 'mpn', 'model_number'] },
  { legend: 'Size and weight', names: ['weight', 'weight_unit', 'length', 'width', 'height', 'dimension_unit'] },
  { legend: 'Picture', names: ['image_url'] },
];

const UNIT_WORDS: Record<string, string> = { lb: 'pounds (lb)', oz: 'ounces (oz)', kg: 'kilograms (kg)', g: 'grams (g)', in: 'inches (in)', cm: 'centimetres (cm)' };

/** Blank attribute rows a form offers for new attributes. */
const EMPTY_ATTRIBUTE_ROWS = 3;

export const labelOf = (name: string): string => FIELD_WORDS[name]?.label ?? name;

/** What the form shows: the values typed (or stored) and the problems found with them. */
export interface ProductFormState {
  input: ProductFormInput;
  problems: ProductFormProblem[];
}

/** The form as the stored product fills it. */
export function stateOfProduct(view: ProductView): ProductFormState {
  const values: Record<string, string> = {};
  for (const f of FORM_FIELDS) {
    const v = view[f.name];
    values[f.name] = typeof v === 'string' ? v : '';
  }
  return { input: { sku: view.sku, fields: values, attributes: Object.entries(view.attributes).map(([name, value]) => ({ name, value })) }, problems: [] };
}

export const EMPTY_FORM: ProductFormState = { input: { sku: '', fields: {}, attributes: [] }, problems: [] };

/** The posted form as the domain reads it. */
export function readProductForm(body: unknown): ProductFormInput {
  const values: Record<string, string> = {};
  for (const f of FORM_FIELDS) values[f.name] = field(body, f.name);
  const names = fields(body, 'attr_name');
  const valuesOf = fields(body, 'attr_value');
  // The form's empty rows say nothing; dropped here so a page shown again does not add more of them.
  const attributes = names.map((name, i) => ({ name, value: valuesOf[i] ?? '' })).filter((a) => a.name.trim() !== '' || a.value.trim() !== '');
  return { sku: field(body, 'sku'), fields: values, attributes };
}

/** A problem as one sentence naming the form's label. */
export function problemText(p: ProductFormProblem): string {
  // The import's reader speaks of spreadsheets dropping leading zeros; a typed code has no spreadsheet.
  const message = p.message.replace(/; a spreadsheet may have dropped leading zeros.*$/, '');
  const [kind, row] = p.field.split(':');
  if (kind === 'attribute-name') return `Attribute ${Number(row) + 1} name ${message}.`;
  if (kind === 'attribute-value') return `Attribute ${Number(row) + 1} value ${message}.`;
  if (p.field === 'sku') return `SKU ${message}.`;
  return `${labelOf(p.field)} ${message}.`;
}

const inputId = (name: string) => `f-${name.replace(/[^a-z0-9_-]/gi, '-')}`;

function Problem({ id, problem }: { id: string; problem: ProductFormProblem | undefined }) {
  if (!problem) return '';
  return (
    <span class="error" id={`${id}-error`} safe>
      {problemText(problem)}
    </span>
  );
}

function FormField({ name, value, problem }: { name: string; value: string; problem: ProductFormProblem | undefined }) {
  const words = FIELD_WORDS[name] ?? { label: name };
  const f = FORM_FIELDS.find((x) => x.name === name);
  const id = inputId(name);
  const hintId = words.hint ? `${id}-hint` : undefined;
  const describedBy = [hintId, problem ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined;
  const invalid = problem ? 'true' : undefined;
  let control: JSX.Element;
  if (f?.kind === 'enum') {
    control = (
      <select id={id} name={name} aria-describedby={describedBy} aria-invalid={invalid}>
        <option value="" selected={value === ''}>
          Not set
        </option>
        {(f.values ?? []).map((v) => (
          <option value={v} selected={v === value} safe>
            {UNIT_WORDS[v] ?? v}
          </option>
        ))}
      </select>
    );
  } else if (name === 'description') {
    control = (
      <textarea id={id} name={name} rows="5" aria-describedby={describedBy} aria-invalid={invalid} safe>
        {value}
      </textarea>
    );
  } else {
    const inputmode = f?.kind === 'decimal' ? 'decimal' : f?.kind === 'identifier' ? 'numeric' : undefined;
    control = <input id={id} type="text" name={name} value={value} inputmode={inputmode} aria-describedby={describedBy} aria-invalid={invalid} />;
  }
  return (
    <div class={name === 'description' || name === 'title' || name === 'image_url' ? 'wide' : undefined}>
      <label for={id}>
        <span safe>{words.label}</span>
        {words.hint ? (
          <span class="hint" id={hintId} safe>
            {words.hint}
          </span>
        ) : (
          ''
        )}
      </label>
      {control}
      <Problem id={id} problem={problem} />
    </div>
  );
}

/** Where a problem's input is on the form (the SKU first, then the groups, then the attribute rows). */
function formPosition(p: ProductFormProblem): number {
  if (p.field === 'sku') return -1;
  const [kind, row] = p.field.split(':');
  if (kind === 'attribute-name' || kind === 'attribute-value') return 1000 + Number(row) * 2 + (kind === 'attribute-value' ? 1 : 0);
  return GROUPS.flatMap((g) => g.names).indexOf(p.field);
}

/** The problems at the top of the form in the order of the form, each a link to its field. */
function ProblemSummary({ problems: unordered }: { problems: ProductFormProblem[] }) {
  if (unordered.length === 0) return '';
  const problems = [...unordered].sort((a, b) => formPosition(a) - formPosition(b));
  return (
    <div class="flash bad" role="alert" id="problems">
      <p safe>{problems.length === 1 ? 'The product was not saved. Please fix this:' : `The product was not saved. Please fix these ${problems.length} things:`}</p>
      <ul>
        {problems.map((p) => (
          <li>
            <a href={`#${inputId(p.field)}`} safe>
              {problemText(p)}
            </a>
            {p.existingProductId !== undefined ? (
              <>
                {' '}
                <a href={`/console/catalog/${p.existingProductId}`}>Open that product</a>
              </>
            ) : (
              ''
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ProductForm({ action, csrfToken, state, creating, submit }: { action: string; csrfToken: string; state: ProductFormState; creating: boolean; submit: string }) {
  const problemOf = (name: string) => state.problems.find((p) => p.field === name);
  const attributes = [...state.input.attributes, ...Array.from({ length: EMPTY_ATTRIBUTE_ROWS }, () => ({ name: '', value: '' }))];
  // A page with problems answers 400, which htmx does not swap in: the form posts as a plain page load.
  return (
    <form method="post" action={action} class="product-form" hx-boost="false">
      <CsrfField token={csrfToken} />
      <ProblemSummary problems={state.problems} />
      {creating ? (
        <div class="fields">
          <div>
            <label for="f-sku">
              <span>SKU</span>
              <span class="hint" id="f-sku-hint">
                your code for the product; it cannot be changed later
              </span>
            </label>
            <input
              id="f-sku"
              type="text"
              name="sku"
              value={state.input.sku}
              required
              aria-describedby={problemOf('sku') ? 'f-sku-hint f-sku-error' : 'f-sku-hint'}
              aria-invalid={problemOf('sku') ? 'true' : undefined}
            />
            <Problem id="f-sku" problem={problemOf('sku')} />
          </div>
        </div>
      ) : (
        ''
      )}
      {GROUPS.map((g) => (
        <fieldset>
          <legend safe>{g.legend}</legend>
          <div class="fields">
            {g.names.map((name) => (
              <FormField name={name} value={state.input.fields[name] ?? ''} problem={problemOf(name)} />
            ))}
          </div>
        </fieldset>
      ))}
      <fieldset>
        <legend>Attributes</legend>
        <p class="hint muted">Anything else channels ask for, as a name and a value (color: blue). Clear a value to remove its attribute.</p>
        <div class="attributes">
          {attributes.map((a, i) => {
            const nameProblem = problemOf(`attribute-name:${i}`);
            const valueProblem = problemOf(`attribute-value:${i}`);
            const nameId = inputId(`attribute-name:${i}`);
            const valueId = inputId(`attribute-value:${i}`);
            return (
              <div class="attribute">
                <div>
                  <label for={nameId}>
                    <span>
                      Name<span class="skip" safe>{` of attribute ${i + 1}`}</span>
                    </span>
                  </label>
                  <input id={nameId} type="text" name="attr_name" value={a.name} aria-invalid={nameProblem ? 'true' : undefined} aria-describedby={nameProblem ? `${nameId}-error` : undefined} />
                  <Problem id={nameId} problem={nameProblem} />
                </div>
                <div>
                  <label for={valueId}>
                    <span>
                      Value<span class="skip" safe>{` of attribute ${i + 1}`}</span>
                    </span>
                  </label>
                  <input id={valueId} type="text" name="attr_value" value={a.value} aria-invalid={valueProblem ? 'true' : undefined} aria-describedby={valueProblem ? `${valueId}-error` : undefined} />
                  <Problem id={valueId} problem={valueProblem} />
                </div>
              </div>
            );
          })}
        </div>
      </fieldset>
      <div class="actions">
        <button type="submit" safe>
          {submit}
        </button>
        <a href="/console/catalog">Cancel</a>
      </div>
    </form>
  );
}
