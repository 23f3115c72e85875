import type { Address } from '../../../../domain/orders/model.js';
import type { SalesOrderV1 } from '../../../../domain/orders/view.js';

/**
 * Who bought and where it goes: the order's customer (name, email, phone) and its ship-to and bill-to
 * addresses, as the channel sent them. A field the order does not have is simply left out; an address a
 * channel never sent says so. Addresses are stored as the API takes them, so every field may be missing.
 */

type StoredAddress = Partial<Record<keyof Address, string | null>>;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

let regionNames: Intl.DisplayNames | null | undefined;

/** "US" → "United States" (the code itself when the runtime has no name for it). */
export function countryName(code: string | null): string | null {
  if (code === null) return null;
  if (regionNames === undefined) {
    try {
      regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
    } catch {
      regionNames = null;
    }
  }
  try {
    return (/^[A-Za-z]{2}$/.test(code) ? regionNames?.of(code.toUpperCase()) : undefined) ?? code;
  } catch {
    return code;
  }
}

/** The address as lines a person reads (and a carrier label carries), without phone and email. */
export function addressLines(address: StoredAddress | null): string[] {
  if (!address) return [];
  const city = [text(address.city), text(address.state), text(address.postalCode)].filter((x) => x !== null).join(' ');
  return [text(address.name), text(address.company), text(address.addressLine1), text(address.addressLine2), city === '' ? null : city, countryName(text(address.countryCode))].filter(
    (x): x is string => x !== null,
  );
}

/** The customer's email and phone: the order's email, else an address's; the ship-to phone, else the bill-to's. */
export function customerContact(order: SalesOrderV1): { name: string | null; email: string | null; phone: string | null } {
  const ship = order.shippingAddress as StoredAddress | null;
  const bill = order.billingAddress as StoredAddress | null;
  return {
    name: text(order.customerName) ?? text(bill?.name) ?? text(ship?.name),
    email: text(order.customerEmail) ?? text(ship?.email) ?? text(bill?.email),
    phone: text(ship?.phone) ?? text(bill?.phone),
  };
}

/** A phone number as a link that dials it on a phone (plain text when it holds no digits to dial). */
function TelLink({ phone }: { phone: string }) {
  const dial = phone.replace(/[^\d+]/g, '');
  if (!/\d/.test(dial)) return <span safe>{phone}</span>;
  return (
    <a href={`tel:${dial}`} safe>
      {phone}
    </a>
  );
}

function AddressBlock({ address, contact }: { address: StoredAddress | null; contact: { email: string | null; phone: string | null } }) {
  const lines = addressLines(address);
  if (lines.length === 0) return <p class="muted">Not given on this order.</p>;
  // The address's own phone and email, when they differ from the customer's shown above.
  const phone = text(address?.phone);
  const email = text(address?.email);
  return (
    <address>
      {lines.map((l) => (
        <>
          <span safe>{l}</span>
          <br />
        </>
      ))}
      {phone && phone !== contact.phone ? <span safe>{`Phone ${phone}`}</span> : ''}
      {email && email !== contact.email ? <span safe>{`Email ${email}`}</span> : ''}
    </address>
  );
}

const sameAddress = (a: StoredAddress | null, b: StoredAddress | null) => a !== null && b !== null && addressLines(a).join('\n') === addressLines(b).join('\n');

/** After the personal-data redaction (resolutions §10): what is gone, and the one thing kept (the country). */
function RedactedSection({ order }: { order: SalesOrderV1 }) {
  const country = countryName(text((order.shippingAddress as StoredAddress | null)?.countryCode));
  return (
    <section aria-labelledby="customer" class="people">
      <h2 id="customer" class="skip">
        Customer and addresses
      </h2>
      <div class="panel">
        <h3>Customer</h3>
        <p>Redacted: the buyer's name, email, phone, addresses and messages were removed under your personal-data policy.</p>
        {country ? <p safe>{`Ships to ${country}`}</p> : ''}
      </div>
    </section>
  );
}

export function CustomerSection({ order }: { order: SalesOrderV1 }) {
  if (order.personalDataRedactedTs !== null) return <RedactedSection order={order} />;
  const contact = customerContact(order);
  const ship = order.shippingAddress as StoredAddress | null;
  const bill = order.billingAddress as StoredAddress | null;
  return (
    <section aria-labelledby="customer" class="people">
      <h2 id="customer" class="skip">
        Customer and addresses
      </h2>
      <div class="panel">
        <h3>Customer</h3>
        {contact.name === null && contact.email === null && contact.phone === null ? (
          <p class="muted">No customer details on this order.</p>
        ) : (
          <ul class="plain">
            {contact.name ? <li safe>{contact.name}</li> : ''}
            {contact.email ? (
              <li>
                <a href={`mailto:${contact.email}`} safe>
                  {contact.email}
                </a>
              </li>
            ) : (
              ''
            )}
            {contact.phone ? <li>
                <TelLink phone={contact.phone} />
              </li> : ''}
          </ul>
        )}
      </div>
      <div class="panel">
        <h3>Ship to</h3>
        <AddressBlock address={ship} contact={contact} />
      </div>
      <div class="panel">
        <h3>Bill to</h3>
        {sameAddress(ship, bill) ? <p>Same as ship to.</p> : <AddressBlock address={bill} contact={contact} />}
      </div>
    </section>
  );
}
