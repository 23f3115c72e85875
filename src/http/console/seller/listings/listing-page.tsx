import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { listingErrorReport, type VariantErrorReport } from '../../../../domain/listings/channel-errors.js';
import type { ListingView } from '../../../../domain/listings/model.js';
import { submissionsForSkus } from '../../../../domain/listings/seller-listing-lines.js';
import type { SubmissionView } from '../../../../domain/listings/submissions.js';
import { findListing, loadListingViews } from '../../../../domain/listings/view.js';
import { notFound } from '../../../../domain/errors.js';
import { Badge, formatTs } from '../../components.js';
import { Layout, type PageContext } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { idParam } from '../params.js';
import { ListingEditForm } from './listing-edit.js';
import { Attributes, ChannelReport, Submissions, Variants } from './listing-view.js';

function ListingPage(props: { ctx: PageContext; listing: ListingView; storefrontId: number; report: VariantErrorReport[]; submissions: SubmissionView[] }) {
  const { listing } = props;
  const title = listing.productData.attributes.find((a) => a.id === 'title')?.textValue;
  return (
    <Layout ctx={props.ctx} title={`Listing ${listing.sku}`}>
      <p>
        <a href={`/console/listings?storefrontId=${props.storefrontId}`}>← Listings of the storefront</a>
      </p>
      <h1 safe>{title ? `${listing.sku}: ${title}` : listing.sku}</h1>
      <dl class="facts">
        <dt>Storefront</dt>
        <dd>
          <a href={`/console/apps/storefronts/${props.storefrontId}`} safe>
            {String(props.storefrontId)}
          </a>
        </dd>
        <dt>Category</dt>
        <dd safe>{listing.productData.categoryId || '–'}</dd>
        <dt>Product type</dt>
        <dd safe>{listing.productData.productTypeId || '–'}</dd>
        <dt>Pivot attributes</dt>
        <dd safe>{listing.productData.pivotAttributes.join(', ') || '–'}</dd>
        <dt>Product data</dt>
        <dd>{listing.productData.enabled ? <Badge tone="ok" text="enabled" /> : <Badge text="disabled" />}</dd>
        <dt>Product data updated</dt>
        <dd safe>{formatTs(listing.productData.updatedAt, props.ctx.settings)}</dd>
      </dl>
      <section aria-labelledby="pd-title">
        <h2 id="pd-title">Product data</h2>
        <Attributes caption="Listing product data" values={listing.productData.attributes} settings={props.ctx.settings} />
      </section>
      <section aria-labelledby="edit-title">
        <h2 id="edit-title">Edit</h2>
        <ListingEditForm listing={listing} csrfToken={props.ctx.csrfToken} />
      </section>
      <section aria-labelledby="variants-title">
        <h2 id="variants-title">Variants</h2>
        <Variants listing={listing} settings={props.ctx.settings} />
      </section>
      <section aria-labelledby="channel-title">
        <h2 id="channel-title">On the channel</h2>
        <ChannelReport variants={props.report} settings={props.ctx.settings} />
      </section>
      <section aria-labelledby="submissions-title">
        <h2 id="submissions-title">Submissions</h2>
        <Submissions submissions={props.submissions} settings={props.ctx.settings} />
      </section>
    </Layout>
  );
}

export function registerListingPage(scope: FastifyInstance, deps: Deps): void {
  scope.get('/listings/:listingId', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const db = deps.db.db;
    const listingId = idParam(request.params, 'listingId');
    // Another account's listing is the same 404 as a missing one.
    const found = await findListing(db, user.accountId, listingId);
    const [listing] = found ? await loadListingViews(db, user.accountId, [listingId], { forPoll: false }) : [];
    if (!found || !listing) throw notFound(`listing ${listingId} not found`);
    const report = await listingErrorReport(db, user.accountId, listingId, deps.clock.now());
    const submissions = await submissionsForSkus(db, user.accountId, found.storefrontId, [listing.sku, ...listing.variants.map((v) => v.sku)]);
    return sendHtml(
      reply,
      <ListingPage
        ctx={pageContext(request, reply, user, '/console/listings')}
        listing={listing}
        storefrontId={found.storefrontId}
        report={report?.variants ?? []}
        submissions={submissions}
      />,
    );
  });
}
