import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { invalidArgument } from '../../../../domain/errors.js';
import { patchListingWithStock } from '../../../../domain/inventory/listing-writes.js';
import { parseListingPatch } from '../../../../domain/listings/listing-input.js';
import type { ListingView } from '../../../../domain/listings/model.js';
import { findListing } from '../../../../domain/listings/view.js';
import { notFound } from '../../../../domain/errors.js';
import { PatchListingBody } from '../../../admin/listings/patch-listing.js';
import { Field, PostForm, field, fields, formAction } from '../../components.js';
import { checkForm, type FormWords } from '../../form-check.js';
import { sellerOf } from '../../session.js';
import { idParam } from '../params.js';

/**
 * The seller's edit of a listing's product data: its text attributes (title first), a new one, and the
 * enabled flags. The form becomes the body of PATCH /admin/accounts/{id}/listings/{listingId} and goes
 * through the same parsing and domain function, so a changed value gets a new version the polls see.
 */
export function ListingEditForm({ listing, csrfToken }: { listing: ListingView; csrfToken: string }) {
  const texts = listing.productData.attributes.filter((a) => a.textValue !== undefined);
  const rows = texts.some((a) => a.id === 'title') ? texts : [{ id: 'title', textValue: '' }, ...texts];
  rows.sort((a, b) => (a.id === 'title' ? -1 : b.id === 'title' ? 1 : 0));
  return (
    <PostForm action={`/console/listings/${listing.id}/edit`} csrfToken={csrfToken} class="stack">
      <p class="muted">Emptying a field removes that attribute. Other kinds of values are changed by the channel or the API.</p>
      {rows.map((a) => (
        <>
          <input type="hidden" name="attrId" value={a.id} />
          <Field label={a.id} name="attrValue" value={a.textValue ?? ''} />
        </>
      ))}
      <fieldset>
        <legend>Add a text attribute</legend>
        <Field label="Attribute id" name="newAttrId" />
        <Field label="Value" name="newAttrValue" />
      </fieldset>
      <label>
        <input type="checkbox" name="enabled" value="true" checked={listing.productData.enabled} />
        <span>Send this listing's product data to the channel</span>
      </label>
      {listing.variants.length > 0 ? (
        <fieldset>
          <legend>Variants</legend>
          {listing.variants.map((v) => (
            <div>
              <input type="hidden" name="variantSku" value={v.sku} />
              <strong safe>{v.sku}</strong>
              <label>
                <input type="checkbox" name="variantProductData" value={v.sku} checked={v.productData.enabled} />
                <span>product data enabled</span>
              </label>
              <label>
                <input type="checkbox" name="variantInventory" value={v.sku} checked={v.inventory.enabled} />
                <span>inventory sync enabled</span>
              </label>
            </div>
          ))}
        </fieldset>
      ) : (
        ''
      )}
      <button type="submit">Save</button>
    </PostForm>
  );
}

/** The form as the PATCH body (parsed by parseListingPatch, like the API's). */
export function patchBodyOf(form: unknown): Record<string, unknown> {
  const ids = fields(form, 'attrId');
  const values = fields(form, 'attrValue');
  if (ids.length !== values.length) throw invalidArgument('The form is incomplete. Reload the page and try again.');
  const attributes: { id: string; textValue: string }[] = [];
  const removeAttributeIds: string[] = [];
  ids.forEach((id, i) => {
    const value = values[i]!;
    if (value.trim() === '') removeAttributeIds.push(id);
    else attributes.push({ id, textValue: value });
  });
  const newId = field(form, 'newAttrId').trim();
  const newValue = field(form, 'newAttrValue');
  if (newId !== '' || newValue.trim() !== '') {
    if (newId === '' || newValue.trim() === '') throw invalidArgument('A new attribute needs both an id and a value. Fill in both, or leave both empty.');
    attributes.push({ id: newId, textValue: newValue });
  }
  const pdOn = new Set(fields(form, 'variantProductData'));
  const invOn = new Set(fields(form, 'variantInventory'));
  const variants = fields(form, 'variantSku').map((sku) => ({ sku, productData: { enabled: pdOn.has(sku) }, inventory: { enabled: invOn.has(sku) } }));
  return {
    productData: { enabled: field(form, 'enabled') === 'true', attributes, ...(removeAttributeIds.length > 0 ? { removeAttributeIds } : {}) },
    ...(variants.length > 0 ? { variants } : {}),
  };
}

/** The PATCH body's fields as the edit form labels them. */
const EDIT_WORDS: FormWords = {
  'productData.attributes.id': 'Attribute id',
  'productData.attributes.textValue': 'Value',
  'productData.removeAttributeIds': 'Attribute id',
  'variants.sku': 'Variant SKU',
};

export function registerListingEdit(scope: FastifyInstance, deps: Deps): void {
  scope.post('/listings/:listingId/edit', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const listingId = idParam(request.params, 'listingId');
    if (!(await findListing(deps.db.db, user.accountId, listingId))) throw notFound(`listing ${listingId} not found`);
    return formAction(deps, request, reply, `/console/listings/${listingId}`, 'Listing saved.', async () => {
      // PATCH …/listings/{listingId}'s body schema, then its parsing: the API's two checks, in that order.
      const patch = parseListingPatch(checkForm(PatchListingBody, patchBodyOf(request.body), EDIT_WORDS));
      const now = deps.clock.now();
      // The same steps as PATCH /admin/accounts/{id}/listings/{listingId}.
      await withTx(deps.db.db, async (tx) => {
        await patchListingWithStock(tx, user.accountId, listingId, patch, now, { checkSelectValues: true });
      });
    });
  });
}
