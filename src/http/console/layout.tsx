import type { PropsWithChildren } from '@kitajs/html';
import type { ConsoleUser } from '../../domain/users/users.js';
import { ASSETS } from './assets.js';
import type { DisplaySettings } from './format.js';
import { CSRF_FIELD } from './security.js';

/** What every page's frame needs: who is signed in, which section is current, the form token, a flash. */
export interface PageContext {
  user: ConsoleUser | null;
  csrfToken: string;
  /** The nav entry to mark current (its href). */
  active?: string;
  flash?: { kind: 'ok' | 'bad'; text: string } | null;
  /** How the page writes money and dates (formatTs/formatMoney): the seller's account settings; UTC for operators. */
  settings: DisplaySettings;
}

const SELLER_NAV: [string, string][] = [
  ['/console/home', 'Home'],
  ['/console/apps', 'Apps'],
  ['/console/orders', 'Orders'],
  ['/console/catalog', 'Catalog'],
  ['/console/inventory', 'Inventory'],
  ['/console/listings', 'Listings'],
  ['/console/reports', 'Reports'],
  ['/console/users', 'Users'],
];

const OPERATOR_NAV: [string, string][] = [
  ['/console/operator', 'Overview'],
  ['/console/operator/accounts', 'Accounts'],
  ['/console/operator/apps', 'Apps'],
  ['/console/operator/jobs', 'Jobs'],
  ['/console/operator/deliveries', 'Callbacks'],
  ['/console/operator/operators', 'Operators'],
];

// htmx's own inline indicator styles and eval would break the CSP; the stylesheet styles the indicator.
const HTMX_CONFIG = JSON.stringify({ includeIndicatorStyles: false, allowEval: false, allowScriptTags: false, historyCacheSize: 0 });

/** The hidden form field every POST form carries. */
export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={token} />;
}

function Nav({ ctx }: { ctx: PageContext }) {
  if (!ctx.user) return '';
  const entries = ctx.user.kind === 'OPERATOR' ? OPERATOR_NAV : SELLER_NAV;
  return (
    <nav aria-label="Main">
      <ul>
        {entries.map(([href, label]) => (
          <li>
            <a href={href} aria-current={ctx.active === href ? 'page' : undefined} safe>
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Who({ ctx }: { ctx: PageContext }) {
  if (!ctx.user) return '';
  const role = ctx.user.kind === 'OPERATOR' ? 'operator' : ctx.user.role.toLowerCase();
  return (
    <div class="who">
      <span safe>{`${ctx.user.email} (${role})`}</span>
      <form method="post" action="/console/logout">
        <CsrfField token={ctx.csrfToken} />
        <button type="submit">Sign out</button>
      </form>
      <form method="post" action="/console/logout-everywhere" hx-confirm="Sign out on every device?">
        <CsrfField token={ctx.csrfToken} />
        <button type="submit" title="Ends every session of your user, on every device">Sign out everywhere</button>
      </form>
    </div>
  );
}

/** The page frame: landmarks, skip link, nav, flash, main content. Every console page renders through it. */
export function Layout({ ctx, title, children }: PropsWithChildren<{ ctx: PageContext; title: string }>) {
  return (
    <>
      {'<!doctype html>'}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="htmx-config" content={HTMX_CONFIG} />
          <title safe>{`${title} · Commerce console`}</title>
          <link rel="stylesheet" href={ASSETS.css} />
          <link rel="icon" type="image/svg+xml" href={ASSETS.favicon} />
          <script src={ASSETS.htmx} defer></script>
        </head>
        <body hx-boost="true" hx-headers={JSON.stringify({ 'X-CSRF-Token': ctx.csrfToken })}>
          <a class="skip" href="#main">
            Skip to content
          </a>
          <header class="top">
            <a href="/console">
              <strong>Commerce console</strong>
            </a>
            <Nav ctx={ctx} />
            <Who ctx={ctx} />
          </header>
          <main id="main" tabindex="-1">
            {ctx.flash ? (
              <p class={`flash ${ctx.flash.kind}`} role={ctx.flash.kind === 'bad' ? 'alert' : 'status'} safe>
                {ctx.flash.text}
              </p>
            ) : (
              ''
            )}
            {children}
          </main>
        </body>
      </html>
    </>
  );
}
