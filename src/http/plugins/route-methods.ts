import type { App } from '../types.js';

/**
 * Which methods the service serves on a concrete path, for telling "no such route" (404) from "wrong
 * method on a known path" (v1 405, v2 501 UNIMPLEMENTED as grpc-gateway answers). Fastify's not-found
 * handler does not say which of the two it is, so every route's pattern is kept as a regular expression.
 * Only 404s consult it.
 */
export interface RouteMethods {
  methodsFor(path: string): string[];
}

/** '/v2/storefront/listing/sku/:sku' → /^\/v2\/storefront\/listing\/sku\/[^/]+\/?$/ ('*' matches the rest). */
function patternOf(url: string): RegExp {
  const body = url
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')))
    .join('');
  // Routes ignore a trailing slash (app.ts routerOptions).
  return new RegExp(`^${body.replace(/\\\/$/, '')}\\/?$`);
}

export function trackRouteMethods(app: App): RouteMethods {
  const routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  app.addHook('onRoute', (route) => {
    let entry = routes.get(route.url);
    if (!entry) {
      entry = { pattern: patternOf(route.url), methods: new Set() };
      routes.set(route.url, entry);
    }
    for (const m of Array.isArray(route.method) ? route.method : [route.method]) entry.methods.add(m);
  });
  return {
    methodsFor(path) {
      const methods = new Set<string>();
      for (const { pattern, methods: ms } of routes.values()) if (pattern.test(path)) for (const m of ms) methods.add(m);
      return [...methods].sort();
    },
  };
}
