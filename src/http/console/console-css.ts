/**
 * The console's stylesheet, kept as a module so the build needs no asset copying. Plain CSS, no framework:
 * readable on a laptop and a phone (the tables scroll sideways on narrow screens), visible focus for
 * keyboard users, colours with enough contrast.
 */
export const CONSOLE_CSS = `
:root { --fg: #1b1f24; --muted: #57606a; --bg: #ffffff; --panel: #f6f8fa; --line: #d0d7de; --accent: #0a58ca;
  --ok: #116329; --warn: #7d4e00; --bad: #a40e26; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); line-height: 1.45; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible {
  outline: 3px solid #fd8c73; outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px 8px; z-index: 10; }
header.top { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; padding: 8px 16px; background: #24292f; color: #fff; }
header.top a { color: #fff; text-decoration: none; } header.top a[aria-current="page"] { text-decoration: underline; font-weight: 600; }
header.top nav ul { display: flex; flex-wrap: wrap; gap: 4px 14px; list-style: none; margin: 0; padding: 0; }
header.top .who { margin-left: auto; display: flex; gap: 8px; align-items: center; font-size: 0.9em; }
header.top form { display: inline; } header.top button { background: none; border: 1px solid #8c959f; color: #fff; border-radius: 4px; padding: 2px 8px; cursor: pointer; }
main { padding: 16px; max-width: 1200px; margin: 0 auto; }
h1 { font-size: 1.5em; margin: 0.2em 0 0.6em; } h2 { font-size: 1.2em; margin: 1.2em 0 0.5em; }
.table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: collapse; width: 100%; font-size: 0.95em; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--panel); font-weight: 600; } tr:last-child td { border-bottom: none; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 12px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 12px; background: var(--panel); }
.card .count { font-size: 1.8em; font-weight: 700; display: block; }
.card.figure { min-width: 0; overflow-wrap: anywhere; } .card.figure h2 { font-size: 1em; margin: 0 0 4px; } .card.figure p { margin: 4px 0 0; font-size: 0.9em; }
.card.figure a.count { text-decoration: none; } .card.figure.bad .count { color: var(--bad); } .card.figure.warn .count { color: var(--warn); }
p.empty { padding: 12px; border: 1px dashed var(--line); border-radius: 6px; color: var(--muted); background: var(--panel); }
.narrow-table { max-width: 420px; } .narrow-table th:last-child { text-align: right; }
@media (max-width: 640px) {
  .rows-stack thead { position: absolute; left: -999px; } .rows-stack table, .rows-stack tbody, .rows-stack tr, .rows-stack td { display: block; }
  .rows-stack tr { padding: 8px 10px; border-bottom: 1px solid var(--line); } .rows-stack tr:last-child { border-bottom: none; }
  .rows-stack td { border: none; padding: 2px 0; overflow-wrap: anywhere; } .rows-stack td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; }
  .rows-stack td:empty { display: none; } .rows-stack td.num { text-align: left; } .rows-stack form.inline { margin: 4px 0 0; }
}
.badge { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 0.85em; border: 1px solid var(--line); background: var(--panel); }
.badge.ok { color: var(--ok); border-color: var(--ok); } .badge.warn { color: var(--warn); border-color: var(--warn); } .badge.bad { color: var(--bad); border-color: var(--bad); }
form.stack { display: grid; gap: 10px; max-width: 480px; }
form.inline { display: flex; flex-wrap: wrap; gap: 8px; align-items: end; margin: 8px 0; }
label { display: grid; gap: 2px; font-weight: 600; font-size: 0.92em; } label span.hint { font-weight: 400; color: var(--muted); }
input, select, textarea { font: inherit; padding: 5px 8px; border: 1px solid var(--line); border-radius: 4px; background: #fff; color: var(--fg); min-width: 0; }
button, .button { font: inherit; padding: 5px 12px; border-radius: 4px; border: 1px solid #1f6feb; background: #1f6feb; color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary, .button.secondary { background: #fff; color: var(--fg); border-color: var(--line); }
button.danger { background: var(--bad); border-color: var(--bad); }
.flash { padding: 8px 12px; border-radius: 6px; margin: 0 0 12px; border: 1px solid var(--line); }
.flash.ok { background: #dafbe1; border-color: #4ac26b; } .flash.bad { background: #ffebe9; border-color: #ff8182; }
.muted { color: var(--muted); } .pager { display: flex; gap: 12px; margin: 10px 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; } dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; }
pre { background: var(--panel); padding: 8px; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; }
.login { max-width: 380px; margin: 8vh auto; padding: 20px; border: 1px solid var(--line); border-radius: 8px; }
.htmx-indicator { opacity: 0; transition: opacity 200ms; } .htmx-request .htmx-indicator, .htmx-request.htmx-indicator { opacity: 1; }
.people { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 220px), 1fr)); gap: 12px; margin: 12px 0; }
.panel { border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; background: var(--panel); min-width: 0; overflow-wrap: anywhere; }
.panel h3 { font-size: 1em; margin: 0 0 6px; } .panel p { margin: 0; } address { font-style: normal; }
ul.plain { list-style: none; margin: 0; padding: 0; } .wrap-anywhere { overflow-wrap: anywhere; } dl.facts dd { overflow-wrap: anywhere; min-width: 0; }
.line-title { display: flex; gap: 8px; align-items: flex-start; min-width: 12em; } .line-title img { flex: none; object-fit: contain; border: 1px solid var(--line); border-radius: 4px; background: #fff; }
.actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; } .actions form.inline { margin: 0; }
.slip { max-width: 800px; } .slip h1 { margin-top: 0; }
@media print {
  header.top, .no-print, .crumbs, .flash, main form, main details, main .actions { display: none !important; }
  body { color: #000; background: #fff; font-size: 11pt; } main { padding: 0; max-width: none; }
  a { color: #000; text-decoration: none; } .table-wrap { border: none; overflow: visible; }
  th { background: none; border-bottom: 2px solid #000; } td { border-bottom: 1px solid #888; } tr { break-inside: avoid; }
  .slip { max-width: none; } .slip h2 { font-size: 12pt; margin: 12pt 0 4pt; }
}
form.order-search { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: end; margin: 0 0 10px; }
form.order-search .grow { flex: 1 1 260px; } form.order-search details { flex-basis: 100%; font-size: 0.92em; }
form.order-search details .fields { display: flex; flex-wrap: wrap; gap: 8px 12px; margin-top: 6px; } form.order-search summary { cursor: pointer; color: var(--accent); }
nav.tabs ul { display: flex; flex-wrap: wrap; gap: 2px 4px; list-style: none; margin: 0 0 10px; padding: 0; border-bottom: 1px solid var(--line); }
nav.tabs a { display: inline-block; padding: 4px 10px; text-decoration: none; border-bottom: 3px solid transparent; }
nav.tabs a[aria-current="page"] { color: var(--fg); font-weight: 600; border-bottom-color: var(--accent); } nav.tabs .count { color: var(--muted); font-size: 0.85em; }
table.orders tbody tr { position: relative; } table.orders tbody tr:hover { background: var(--panel); }
table.orders a.row-link { font-weight: 600; } table.orders a.row-link::after { content: ""; position: absolute; inset: 0; }
table.orders .sub { display: block; font-size: 0.88em; overflow-wrap: anywhere; } table.orders td { overflow-wrap: anywhere; }
table.orders th a.sort { color: inherit; } table.orders td.date, table.orders td.total { white-space: nowrap; }
@media (max-width: 640px) {
  table.orders thead { position: absolute; left: -999px; }
  table.orders, table.orders tbody, table.orders td { display: block; }
  table.orders tr { display: grid; grid-template-columns: minmax(0, 1fr) auto; grid-template-areas: "order status" "customer total" "channel channel" "date items";
    gap: 2px 12px; padding: 8px 10px; border-bottom: 1px solid var(--line); }
  table.orders td { border: none; padding: 0; } table.orders td.status, table.orders td.total, table.orders td.items { text-align: right; }
  table.orders td.order { grid-area: order; } table.orders td.status { grid-area: status; } table.orders td.customer { grid-area: customer; }
  table.orders td.total { grid-area: total; } table.orders td.channel { grid-area: channel; } table.orders td.date { grid-area: date; } table.orders td.items { grid-area: items; }
}
table.stock .sku { white-space: nowrap; } table.stock .sub { display: block; font-size: 0.88em; max-width: 16em; }
.low-alert form.inline { margin: 4px 0 0; flex-wrap: nowrap; } .low-alert input { width: 7em; }
@media (max-width: 640px) {
  table.low-stock td.num, table.stock td.num { text-align: left; } table.stock tbody + tbody { border-top: 2px solid var(--line); } table.stock td.num:empty { display: none; }
}
@media (max-width: 640px) { main { padding: 10px; } header.top .who { margin-left: 0; } }
/* Catalog (issue 24 item 4): the list's heading with its button, rows as cards on a phone, the product form's groups. */
.page-head { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; justify-content: space-between; } .page-head h1 { margin-bottom: 0.3em; }
table.catalog tbody tr { position: relative; } table.catalog tbody tr:hover { background: var(--panel); }
table.catalog a.row-link { font-weight: 600; } table.catalog a.row-link::after { content: ""; position: absolute; inset: 0; }
table.catalog td { overflow-wrap: anywhere; } table.catalog .sub { display: block; font-size: 0.88em; white-space: nowrap; } table.catalog td.price { white-space: nowrap; }
@media (max-width: 640px) {
  table.catalog thead { position: absolute; left: -999px; }
  table.catalog, table.catalog tbody, table.catalog td { display: block; }
  table.catalog tr { display: grid; grid-template-columns: minmax(0, 1fr) auto; grid-template-areas: "sku price" "title stock" "brand stock"; gap: 2px 12px; padding: 8px 10px; border-bottom: 1px solid var(--line); }
  table.catalog td { border: none; padding: 0; } table.catalog td.sku { grid-area: sku; } table.catalog td.title { grid-area: title; }
  table.catalog td.brand { grid-area: brand; color: var(--muted); } table.catalog td.price { grid-area: price; } table.catalog td.stock { grid-area: stock; }
}
form.product-form { display: grid; gap: 14px; max-width: 960px; }
form.product-form fieldset { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px 12px; margin: 0; min-width: 0; }
form.product-form legend { font-weight: 600; padding: 0 4px; }
form.product-form .fields { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 210px), 1fr)); gap: 10px 14px; }
form.product-form .fields > div, form.product-form .attribute > div { display: grid; gap: 2px; align-content: start; min-width: 0; }
form.product-form .fields .wide { grid-column: 1 / -1; } form.product-form textarea { width: 100%; }
form.product-form .attributes { display: grid; gap: 8px; } form.product-form .attribute { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 200px), 1fr)); gap: 4px 14px; }
form.product-form .error { color: var(--bad); font-size: 0.92em; } form.product-form [aria-invalid="true"] { border-color: var(--bad); border-width: 2px; }
form.product-form .flash ul { margin: 4px 0 0; padding-left: 20px; } form.product-form p.hint { margin: 0 0 8px; font-size: 0.92em; }
form.order-form label.inline { display: inline-flex; gap: 6px; align-items: center; font-weight: 400; margin-right: 14px; }
form.order-form fieldset.choice { border: none; padding: 0; } form.order-form fieldset.choice legend { padding: 0; font-size: 0.92em; margin-bottom: 4px; }
form.order-form fieldset.bill-to:has(input[name="bill_same"]:checked) .bill-fields { display: none; } form.order-form .bill-fields { margin-top: 8px; }
form.order-form .order-lines { display: grid; gap: 8px; } form.order-form .order-line { display: grid; grid-template-columns: 1.6em minmax(0, 3fr) minmax(0, 1fr) minmax(0, 1.4fr); gap: 4px 12px; }
form.order-form .order-line > div { display: grid; gap: 2px; align-content: start; min-width: 0; } form.order-form .order-line input { width: 100%; box-sizing: border-box; }
form.order-form .line-no { color: var(--muted); text-align: right; align-self: start; padding-top: 1.75em; font-variant-numeric: tabular-nums; }
@media (min-width: 641px) { form.order-form .order-line + .order-line label { position: absolute; left: -999px; } form.order-form .order-line + .order-line .line-no { padding-top: 6px; } }
@media (max-width: 640px) { form.order-form .order-line { grid-template-columns: 1.6em minmax(0, 1fr) minmax(0, 1fr); border-top: 1px solid var(--line); padding-top: 6px; } form.order-form .line-no { grid-row: 1 / span 2; } form.order-form .order-line > div:nth-child(2) { grid-column: 2 / -1; } }
ul.tiles { list-style: none; margin: 0 0 8px; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 165px), 1fr)); gap: 8px; }
ul.tiles li > a, ul.tiles li > div { display: block; height: 100%; padding: 8px 10px; border: 1px solid var(--line); border-radius: 6px; text-decoration: none; color: var(--fg); overflow-wrap: anywhere; }
ul.tiles .count { display: block; font-size: 1.6em; line-height: 1.2; font-variant-numeric: tabular-nums; } ul.tiles .label { font-size: 0.92em; }
ul.tiles li.needs > a, ul.tiles li.needs > div { border-color: var(--warn); border-left-width: 4px; background: #fff8c5; } ul.tiles li.needs .count { color: var(--warn); }
ul.tiles li.clear > a, ul.tiles li.clear > div { background: var(--panel); padding: 6px 10px; } ul.tiles li.clear .count { color: var(--muted); display: inline; font-size: 1.1em; }
ul.tiles li.work > a { border-color: var(--accent); border-left-width: 4px; background: #ddf4ff; } ul.tiles li.work .count { color: var(--accent); }
ul.tiles li > a:hover .label { text-decoration: underline; } ul.tiles .note { display: block; font-size: 0.85em; color: var(--muted); margin-top: 4px; }
section.attention h3 { font-size: 1em; margin: 14px 0 6px; } p.all-clear { padding: 8px 12px; border: 1px solid #4ac26b; border-radius: 6px; background: #dafbe1; }
.first-steps { margin: 0 0 12px; } .first-steps h2 { margin-top: 0; } .first-steps ul { margin: 6px 0 0; padding-left: 20px; }
.last-days .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 300px), 1fr)); gap: 12px 24px; }
.last-days figure { margin: 0; min-width: 0; } .last-days figcaption { font-weight: 600; font-size: 0.95em; }
svg.chart { display: block; width: 100%; max-width: 560px; height: auto; }
svg.chart .axis line { stroke: var(--line); stroke-width: 1; } svg.chart text { fill: var(--muted); font-size: 11px; font-family: inherit; }
svg.chart .bars rect { fill: var(--accent); } .last-days details { margin-top: 10px; } .last-days summary { cursor: pointer; color: var(--accent); }
/* Inventory rules (issue 28): number fields with their unit, radio choices, the exceptions list and the preview. */
form.rules-form .with-unit { display: flex; gap: 6px; align-items: center; } form.rules-form .with-unit input { width: 8em; }
form.rules-form fieldset.choice { border: none; padding: 0; margin: 0; display: grid; gap: 4px; align-content: start; min-width: 0; }
form.rules-form fieldset.choice legend { font-weight: 600; font-size: 0.92em; padding: 0; margin-bottom: 2px; }
form.rules-form label.inline { display: flex; gap: 6px; align-items: center; font-weight: 400; } form.rules-form fieldset.choice > input { width: 8em; }
form.rules-form .sub-label { font-weight: 400; font-size: 0.88em; color: var(--muted); } form.rules-form ul.ticks { padding-left: 22px; display: grid; gap: 2px; }
form.rules-form .label-text { font-weight: 600; font-size: 0.92em; } p.lead { max-width: 70ch; }
table.exceptions td.row-actions { white-space: nowrap; } table.exceptions td.row-actions > * { margin-right: 10px; } table.exceptions td.row-actions form.inline { display: inline-flex; margin: 0; } table.exceptions th.sku { font-weight: 600; overflow-wrap: anywhere; }
section#preview .panel.preview { display: grid; gap: 8px; margin-top: 8px; } .panel.preview p.result { font-size: 1.2em; font-weight: 700; }
@media (max-width: 640px) { .rows-stack th[scope="row"] { display: block; border: none; padding: 2px 0; background: none; } table.exceptions td.row-actions { display: flex; gap: 6px 14px; white-space: normal; margin-top: 4px; } }
`;
