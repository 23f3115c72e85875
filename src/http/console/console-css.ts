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
ul.plain { list-style: none; margin: 0; padding: 0; } dl.facts dd { overflow-wrap: anywhere; min-width: 0; }
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
@media (max-width: 640px) { main { padding: 10px; } header.top .who { margin-left: 0; } }
`;
