import type { VariantErrorReport } from '../../../../domain/listings/channel-errors.js';
import type { AttributeValue, AttributeValueKinds, ListingView, VariantView } from '../../../../domain/listings/model.js';
import type { SubmissionView } from '../../../../domain/listings/submissions.js';
import { Badge, Table, formatMoney, formatTs, type DisplaySettings } from '../../components.js';
import { variantStatusText } from './listing-words.js';

/** Read-only parts of the listing page: attributes, variants, channel status and errors, submissions. */

/** An attribute value as one line of text (whatever its kind). */
export function valueText(v: AttributeValueKinds): string {
  if (v.textValue !== undefined) return v.textValue;
  if (v.numericValue !== undefined) return String(v.numericValue);
  if (v.numericWithUnitsValue) return `${v.numericWithUnitsValue.numeric} ${v.numericWithUnitsValue.units}`;
  if (v.multiTextValue) return v.multiTextValue.values.join(', ');
  // A price carries its own currency (the channel's), which may differ from the account's.
  if (v.moneyValue) return formatMoney(v.moneyValue.amount, { currencyCode: v.moneyValue.currencyCode });
  if (v.multiObjectValue) return JSON.stringify(v.multiObjectValue.items);
  return '';
}

export function Attributes({ caption, values, settings }: { caption: string; values: AttributeValue[]; settings: DisplaySettings }) {
  if (values.length === 0) return <p class="muted">No attributes.</p>;
  return (
    <Table caption={caption} head={['Attribute', 'Value', 'Version', 'Updated', 'Submitted']}>
      {values.map((a) => (
        <tr>
          <td safe>{a.id}</td>
          <td safe>{valueText(a)}</td>
          <td>
            <code safe>{a.versionId}</code>
          </td>
          <td safe>{formatTs(a.updatedAt, settings)}</td>
          <td safe>{formatTs(a.submittedAt, settings)}</td>
        </tr>
      ))}
    </Table>
  );
}

function Variant({ v, settings }: { v: VariantView; settings: DisplaySettings }) {
  const groups: [string, AttributeValue[]][] = [
    ['Product data', v.productData.attributes],
    ['Identifiers', v.identifiers.attributes],
    ['Logistics', v.logistics.attributes],
    ['Pricing', v.pricing.attributes],
  ];
  return (
    <section class="card">
      <h3 safe>{v.sku}</h3>
      <dl class="facts">
        <dt>Channel id</dt>
        <dd safe>{v.channelId === '' ? '– (not live)' : v.channelId}</dd>
        <dt>Product data</dt>
        <dd>{v.productData.enabled ? <Badge tone="ok" text="enabled" /> : <Badge text="disabled" />}</dd>
        <dt>Inventory sync</dt>
        <dd>{v.inventory.enabled ? <Badge tone="ok" text="enabled" /> : <Badge text="disabled" />}</dd>
        <dt>Quantity sent</dt>
        <dd safe>{v.inventory.totalQuantity}</dd>
      </dl>
      {groups
        .filter(([, values]) => values.length > 0)
        .map(([name, values]) => (
          <>
            <h4 safe>{name}</h4>
            <Attributes caption={`${v.sku}: ${name}`} values={values} settings={settings} />
          </>
        ))}
    </section>
  );
}

export function Variants({ listing, settings }: { listing: ListingView; settings: DisplaySettings }) {
  return (
    <>
      {listing.variants.map((v) => (
        <Variant v={v} settings={settings} />
      ))}
    </>
  );
}

export function ChannelReport({ variants, settings }: { variants: VariantErrorReport[]; settings: DisplaySettings }) {
  return (
    <>
      <Table caption="Channel status per variant" head={['Variant', 'Status', 'Channel status', 'Buyable', 'Listing URL', 'Updated', 'Errors']}>
        {variants.map((v) => (
          <tr>
            <td safe>{v.sku}</td>
            <td safe>{variantStatusText(v.status)}</td>
            <td safe>{v.channelStatus}</td>
            <td>{v.buyable ? 'yes' : 'no'}</td>
            {/* Shown as text, not a link: the URL comes from the channel. */}
            <td safe>{v.listingUrl}</td>
            <td safe>{formatTs(v.statusUpdatedAt, settings)}</td>
            <td class="num">{v.errors.length}</td>
          </tr>
        ))}
      </Table>
      {variants.some((v) => v.errors.length > 0) ? (
        <Table caption="Channel errors" head={['Variant', 'Submission type', 'Severity', 'Type', 'Attributes', 'Message', 'Reported']}>
          {variants.flatMap((v) =>
            v.errors.map((e) => (
              <tr>
                <td safe>{v.sku}</td>
                <td safe>{e.submissionType}</td>
                <td>
                  <Badge tone={e.severity === 'SEVERITY_ERROR' ? 'bad' : e.severity === 'SEVERITY_WARNING' ? 'warn' : 'none'} text={e.severity.replace('SEVERITY_', '')} />
                </td>
                <td safe>{e.type.replace('TYPE_', '')}</td>
                <td safe>{e.attributeIds.join(', ')}</td>
                <td safe>{e.message}</td>
                <td safe>{formatTs(e.createdAt, settings)}</td>
              </tr>
            )),
          )}
        </Table>
      ) : (
        <p class="muted">No channel errors.</p>
      )}
    </>
  );
}

export function Submissions({ submissions, settings }: { submissions: SubmissionView[]; settings: DisplaySettings }) {
  if (submissions.length === 0) return <p class="muted">The channel has recorded no submissions for this listing.</p>;
  return (
    <Table caption="Submissions" head={['SKU', 'Type', 'Result', 'Submitted', 'Acknowledged', 'Versions', 'Received']}>
      {submissions.map((s) => (
        <tr>
          <td safe>{s.sku}</td>
          <td safe>{s.type}</td>
          <td>{s.successful ? <Badge tone="ok" text="successful" /> : <Badge tone="bad" text="failed" />}</td>
          <td safe>{formatTs(s.submittedAt, settings)}</td>
          <td safe>{formatTs(s.acknowledgedAt, settings)}</td>
          <td class="num" safe>{String(s.submittedAttributeVersionIds.length)}</td>
          <td safe>{s.contentReceived.slice(0, 300)}</td>
        </tr>
      ))}
    </Table>
  );
}
