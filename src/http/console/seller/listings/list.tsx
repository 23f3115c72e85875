import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { listInstallations, type InstallationView } from '../../../../domain/accounts/installations.js';
import { listListingSummaries, type ListingSummary } from '../../../../domain/listings/seller-list.js';
import { listingLineDetails, type ListingLineDetails } from '../../../../domain/listings/seller-listing-lines.js';
import { Badge, Pager, Select, Table } from '../../components.js';
import { Layout, type PageContext } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { variantStatusesText } from './listing-words.js';
import { decodeIdCursor, encodeIdCursor, queryText } from '../params.js';

const PAGE_SIZE = 50;


function Row({ l, d }: { l: ListingSummary; d: ListingLineDetails | undefined }) {
  return (
    <tr>
      <td>
        <a href={`/console/listings/${l.listingId}`} safe>
          {l.sku}
        </a>
      </td>
      <td safe>{d?.title ?? ''}</td>
      <td safe>{l.productTypeId}</td>
      <td class="num" safe>{`${l.variantCount} (${l.liveVariantCount} live)`}</td>
      <td safe>{variantStatusesText(d?.statuses ?? {})}</td>
      <td>{d && d.errorCount > 0 ? <Badge tone="bad" text={`${d.errorCount} error(s)`} /> : <span class="muted">none</span>}</td>
      <td>{l.productDataEnabled ? <Badge tone="ok" text="enabled" /> : <Badge text="disabled" />}</td>
    </tr>
  );
}

function ListingsPage(props: {
  ctx: PageContext;
  storefronts: InstallationView[];
  storefrontId: string;
  listings: ListingSummary[];
  details: Map<number, ListingLineDetails>;
  next: string | null;
}) {
  return (
    <Layout ctx={props.ctx} title="Listings">
      <h1>Listings</h1>
      <p>
        <a href="/console/listings/ingestions">Ingestions waiting for review</a>
      </p>
      <form method="get" action="/console/listings" class="inline">
        <Select
          label="Storefront"
          name="storefrontId"
          value={props.storefrontId}
          options={[['', 'All storefronts'], ...props.storefronts.map((s): [string, string] => [String(s.installationId), `${s.storefrontName ?? ''} (${s.installationId})${s.status === 'ACTIVE' ? '' : ' – disconnected'}`])]}
        />
        <button type="submit">Show</button>
      </form>
      {props.listings.length === 0 ? (
        <p class="muted">No listings.</p>
      ) : (
        <Table caption="Listings" head={['SKU', 'Title', 'Product type', 'Variants', 'Channel status', 'Channel errors', 'Product data']}>
          {props.listings.map((l) => (
            <Row l={l} d={props.details.get(l.listingId)} />
          ))}
        </Table>
      )}
      <Pager base="/console/listings" params={{ storefrontId: props.storefrontId }} next={props.next} />
    </Layout>
  );
}

export function registerListingsList(scope: FastifyInstance, deps: Deps): void {
  scope.get('/listings', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const db = deps.db.db;
    const storefrontId = queryText(request.query, 'storefrontId');
    const filter = /^[1-9][0-9]{0,15}$/.test(storefrontId) ? { storefrontId: Number(storefrontId) } : {};
    // The cursor is signed per storefront filter, so one page's cursor cannot continue another list.
    const cursorPage = `listings:${filter.storefrontId ?? ''}`;
    const after = decodeIdCursor(deps, cursorPage, queryText(request.query, 'cursor'));
    const installations = await listInstallations(db, user.accountId);
    const page = await listListingSummaries(db, user.accountId, filter, after, PAGE_SIZE);
    const details = await listingLineDetails(
      db,
      user.accountId,
      page.listings.map((l) => l.listingId),
    );
    return sendHtml(
      reply,
      <ListingsPage
        ctx={pageContext(request, reply, user, '/console/listings')}
        storefronts={installations.filter((i) => i.kind === 'SALES_CHANNEL')}
        storefrontId={filter.storefrontId === undefined ? '' : String(filter.storefrontId)}
        listings={page.listings}
        details={details}
        next={encodeIdCursor(deps, cursorPage, page.nextAfterId)}
      />,
    );
  });
}
