import type { Db } from '../../../../db/tx.js';
import { catalogDisplayBySkus } from '../../../../domain/catalog/product-display.js';
import { listingDisplayOfProducts } from '../../../../domain/listings/variant-display.js';
import type { LineItemV1 } from '../../../../domain/orders/view.js';

/**
 * What an order line shows of its product: the title (the channel's or the catalog's, as the API gives it,
 * else the listing's) and its image when the data holds one.
 *
 * Images: the console's CSP allows images from the service itself only (img-src 'self' data:), so that no
 * page view reaches a third party. An image the service serves (a path on this site) or an inline data
 * image is shown; an image on another site is offered as a link the seller opens; anything else is left out.
 */

export type LineImage = { kind: 'img'; src: string } | { kind: 'link'; href: string };

export interface LineDisplay {
  title: string | null;
  image: LineImage | null;
}

const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/;

export function lineImage(url: string | null): LineImage | null {
  const u = url?.trim() ?? '';
  if (u === '') return null;
  if (u.startsWith('/') && !u.startsWith('//') && !u.startsWith('/\\')) return { kind: 'img', src: u };
  if (DATA_IMAGE.test(u)) return { kind: 'img', src: u };
  try {
    const parsed = new URL(u);
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') return { kind: 'link', href: parsed.href };
  } catch {
    // Not a URL: nothing to show.
  }
  return null;
}

/** Each line's title and image, keyed by line id; `storefrontId` (the order's channel) picks its listing first. */
export async function lineDisplays(db: Db, accountId: number, lines: readonly LineItemV1[], storefrontId: number | null): Promise<Map<string, LineDisplay>> {
  const skus = lines.map((l) => l.sku).filter((s): s is string => s !== null);
  const catalog = await catalogDisplayBySkus(db, accountId, skus);
  const listings = await listingDisplayOfProducts(
    db,
    accountId,
    [...catalog.values()].map((c) => c.productId),
    storefrontId,
  );
  const out = new Map<string, LineDisplay>();
  for (const l of lines) {
    const product = l.sku === null ? undefined : catalog.get(l.sku);
    const listing = product ? listings.get(product.productId) : undefined;
    const title = l.title ?? product?.title ?? listing?.title ?? l.requestedTitle ?? null;
    out.set(l.lineItemId, { title, image: lineImage(product?.imageUrl ?? null) ?? lineImage(listing?.imageUrl ?? null) });
  }
  return out;
}

/** The line's title, with its image (or a link to it), for the order page's lines table. */
export function LineTitle({ display, sku }: { display: LineDisplay | undefined; sku: string }) {
  const title = display?.title ?? null;
  const image = display?.image ?? null;
  const what = title ?? sku;
  return (
    <div class="line-title">
      {image?.kind === 'img' ? <img src={image.src} alt={`Image of ${what}`} loading="lazy" width="48" height="48" /> : ''}
      <span>
        {title === null ? <span class="muted">No title</span> : <span safe>{title}</span>}
        {image?.kind === 'link' ? (
          <>
            {' '}
            <a href={image.href} target="_blank" rel="noopener noreferrer">
              Image<span class="skip" safe>{` of ${what}`}</span> (opens another site)
            </a>
          </>
        ) : (
          ''
        )}
      </span>
    </div>
  );
}
