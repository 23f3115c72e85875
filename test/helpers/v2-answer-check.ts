import { AssertionError } from 'node:assert';
import type { LightMyRequestResponse } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { App } from '../../src/app.js';

/**
 * Every v2 answer any test receives is checked against the response schema the OpenAPI document gives its
 * route and status, with every object closed (resolutions §7, third review: exactly the production
 * message's fields; v2-production-messages.test.ts compares those schemas with the production definitions).
 * So a handler that answers a field the schema does not list, a wrong type, or a missing required field
 * fails whichever test met that answer, in whatever state the test put the data. createTestApp installs it
 * on every test app.
 */

type Schema = Record<string, unknown>;
interface OpenApi {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>;
  components?: { schemas?: Record<string, Schema> };
}
interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  responses: Record<string, Schema | undefined>;
}

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

// Schemas are the same for every app of a process: one compiled validator per route and status.
const validators = new Map<string, ValidateFunction>();
let routes: Route[] | null = null;
/** Which v2 routes have had a checked 2xx answer in this process (v2-answers.test.ts asserts it covers all). */
export const checkedV2Routes = new Set<string>();

function routesOf(doc: OpenApi): Route[] {
  const components = doc.components?.schemas ?? {};
  return Object.entries(doc.paths)
    .filter(([p]) => p.startsWith('/v2/'))
    .flatMap(([template, methods]) =>
      Object.entries(methods).map(([method, op]) => {
        const responses: Record<string, Schema | undefined> = {};
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          const schema = response.content?.['application/json']?.schema;
          // References to the document's components become references into the schema's own $defs.
          responses[status] = schema && (JSON.parse(JSON.stringify({ ...schema, $defs: components }).replaceAll('#/components/schemas/', '#/$defs/')) as Schema);
        }
        const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
        return { method: method.toUpperCase(), template, pattern, responses };
      }),
    )
    // Literal segments win over parameters ("/listing/new" before "/listing/{listingId}").
    .sort((a, b) => a.template.split('{').length - b.template.split('{').length);
}

function routeOf(app: App, method: string, path: string): Route | undefined {
  routes ??= routesOf(app.swagger() as OpenApi);
  return routes.find((r) => r.method === method && r.pattern.test(path));
}

/** Checks one answer; throws an AssertionError naming the route, status and every problem. */
export function checkV2Answer(app: App, method: string, url: string, res: LightMyRequestResponse): void {
  const path = url.split('?')[0]!.replace(/\/+$/, '') || '/';
  if (!path.startsWith('/v2/')) return;
  if (!String(res.headers['content-type'] ?? '').startsWith('application/json')) return;
  const route = routeOf(app, method, path);
  if (!route) return;
  const status = String(res.statusCode);
  const schema = route.responses[status];
  if (!schema) {
    if (status.startsWith('2')) throw new AssertionError({ message: `${method} ${route.template} answered ${status}, which its OpenAPI document does not describe` });
    return;
  }
  const key = `${method} ${route.template} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(key, validate);
  }
  const body: unknown = JSON.parse(res.body);
  if (!validate(body)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
    throw new AssertionError({ message: `${key}: the answer does not match its schema:\n  ${problems.slice(0, 20).join('\n  ')}\n${res.body.slice(0, 2000)}` });
  }
  if (status.startsWith('2')) checkedV2Routes.add(`${method} ${route.template}`);
}

/** Wraps app.inject so every v2 answer a test receives is checked (the promise form; the chain form is not used). */
export function installV2AnswerCheck(app: App): void {
  const inject = app.inject.bind(app) as (options: unknown) => Promise<LightMyRequestResponse>;
  const wrapped = async (options: string | { method?: string; url?: string; path?: string }) => {
    const res = await inject(options);
    const method = typeof options === 'string' ? 'GET' : (options.method ?? 'GET').toUpperCase();
    const url = typeof options === 'string' ? options : (options.url ?? options.path ?? '/');
    checkV2Answer(app, method, url, res);
    return res;
  };
  (app as unknown as { inject: typeof wrapped }).inject = wrapped;
}
