import type { SalesOrderV1 } from '../../../../domain/orders/view.js';
import { formatTs, PostForm } from '../../components.js';
import type { DisplaySettings } from '../../format.js';

/**
 * The buyer's personal data on the order page (resolutions §10): how long it is kept, and the erasure a buyer
 * may ask for: this order, or every order of the buyer's email. Erasing cannot be undone, so only an account
 * owner sees the buttons, each asking for confirmation. Once erased the section says when.
 */
export function PersonalDataSection({
  order,
  pending,
  isOwner,
  buyerEmail,
  retentionDays,
  settings,
  csrfToken,
  base,
}: {
  order: SalesOrderV1;
  pending: boolean;
  isOwner: boolean;
  buyerEmail: string | null;
  /** The account's personalDataRetentionDays (null: kept). */
  retentionDays: number | null;
  settings: DisplaySettings;
  csrfToken: string;
  base: string;
}) {
  const redactedTs = order.personalDataRedactedTs;
  const days = retentionDays;
  const keeps = days === null ? "The buyer's personal data is kept (your account has no retention period)." : `The buyer's personal data is erased ${days} day${days === 1 ? '' : 's'} after the order is done (shipped, cancelled or returned).`;
  return (
    <section aria-labelledby="personal-data">
      <h2 id="personal-data">Buyer's personal data</h2>
      {redactedTs !== null ? (
        <p>
          Erased on <time datetime={redactedTs} safe>{formatTs(redactedTs, settings)}</time>: the buyer's name, email, phone, addresses and notes are gone from this order. Items, amounts and
          dates are kept.
        </p>
      ) : (
        <>
          <p safe>{keeps}</p>
          {isOwner && buyerEmail !== null ? (
            <p class="wrap-anywhere">
              "Erase from all of this buyer's orders" finds their orders by the email <span safe>{buyerEmail}</span>.
            </p>
          ) : (
            ''
          )}
          {pending ? <p>An erasure was requested: the buyer's personal data goes as soon as this order is done.</p> : ''}
          {!isOwner ? (
            <p class="muted">Only an account owner can erase a buyer's personal data.</p>
          ) : (
            <div class="actions">
              {pending ? (
                ''
              ) : (
                <PostForm
                  action={`${base}/erase-personal-data`}
                  csrfToken={csrfToken}
                  confirm="Erase the buyer's name, email, phone, addresses and notes from this order? This cannot be undone."
                >
                  <button type="submit" class="secondary">
                    Erase from this order
                  </button>
                </PostForm>
              )}
              {buyerEmail !== null ? (
                <PostForm
                  action={`${base}/erase-buyer`}
                  csrfToken={csrfToken}
                  confirm={`Erase the personal data of ${buyerEmail} from every order of this buyer? This cannot be undone.`}
                >
                  <button type="submit" class="secondary">
                    Erase from all of this buyer's orders
                  </button>
                </PostForm>
              ) : (
                ''
              )}
            </div>
          )}
        </>
      )}
    </section>
  );
}
