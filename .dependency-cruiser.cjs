// The service's import rules (issue 27), checked by `npm run lint`. Over src/ only: tests, bench and scripts
// may import anything, and packages/client is its own package (not followed).
//
// - layer-<name>-upward: a layer imports only itself and the layers below it (LAYERS). Layers in one tier
//   are peers and do not import each other either.
// - area-<name>-upward: inside the domain, an area imports only itself, the areas below it (AREAS) and the
//   shared domain files; areas in one tier are peers. shared-domain-upward: the shared files import no area.
// - no-cycle: no import cycle anywhere in src/, except among the migrations and their index, which every
//   migration imports for its context type (issue 27 allows it).
// - db-fast-paths-only: above src/db, the fast paths are imported from src/db/fast-paths.ts only.
// - not-layered, domain-not-in-area: a new top-level place under src/ or src/domain/ fails until it is
//   given a place here, so nothing escapes the rules by being new.
// Type-only imports count like any other. No exceptions are configured.

/** Top to bottom. An entry is one layer, or an array of peer layers at the same height. */
const LAYERS = [
  // The process entry point: picks `serve` or a CLI command.
  { name: 'main', path: '^src/main\\.ts$' },
  // Listens and closes gracefully.
  { name: 'server', path: '^src/server\\.ts$' },
  // buildApp: the Fastify instance with its plugins and routes.
  { name: 'app', path: '^src/app\\.ts$' },
  // Operator commands (migrate, worker, sandbox, admin commands).
  { name: 'cli', path: '^src/cli/' },
  // The composition root: creates Deps (database, file store, metrics with their collectors) for the
  // server and the CLI alike, so it sits under both and above everything it wires together.
  { name: 'compose', path: '^src/create-deps\\.ts$' },
  // Routes, console pages, plugins, schemas.
  { name: 'http', path: '^src/http/' },
  // The worker, job handlers, schedules, job administration.
  { name: 'jobs', path: '^src/jobs/' },
  [
    // The Deps interface handed to the edges (http, jobs, cli). Type only: the domain takes narrow ports instead.
    { name: 'deps', path: '^src/deps\\.ts$' },
    // Schema migrations, run by the server and the CLI. Their backfills reuse the domain's pure derivations
    // (order status, search terms) on purpose, so they sit above the domain rather than inside db/.
    { name: 'migrations', path: '^src/db/migrations/' },
  ],
  // Business rules: plain functions over a Db handle (areas below).
  { name: 'domain', path: '^src/domain/' },
  // Kysely, transactions, the outbox writer (db/outbox.ts), the file store.
  { name: 'db', path: '^src/db/(?!migrations/)' },
  // Helpers with no knowledge of the service's data, and the configuration.
  { name: 'lib', path: '^src/(lib/|config\\.ts$)' },
];

/**
 * Domain areas, top to bottom, by the same rule as the layers. Everything builds on accounts; catalog →
 * listings → inventory → orders → fulfillment/storefront/inbound → reports is the order, from the
 * bottom up.
 */
const AREAS = [
  // Near the top: the sandbox (an account with one app of each kind and the simulated partner) builds on
  // accounts and callbacks; the operator overview only reads tables.
  ['sandbox-partner', 'operations'],
  // Imports and exports read and write products, stock and orders.
  ['reports'],
  // On orders: shipping and cancellation work, the channel's order reads, receipts of purchase orders, and the
  // erasure and retention of buyers' personal data.
  ['fulfillment', 'storefront', 'inbound', 'personal-data'],
  ['orders'],
  ['inventory'],
  ['listings'],
  ['catalog'],
  // Console users and callback deliveries both belong to accounts and apps.
  ['users', 'callbacks'],
  ['accounts'],
];

/** Files directly in src/domain/ (errors, text limits, decimal input, search terms): the bottom of the domain. */
const SHARED_DOMAIN = '^src/domain/[^/]+$';

function flatten(tiers) {
  return tiers.map((tier) => (Array.isArray(tier) ? tier : [tier]));
}

/** Each layer may not import a layer in a tier above it or a peer in its own tier. */
function layerRules() {
  const tiers = flatten(LAYERS);
  return tiers.flatMap((tier, index) =>
    tier.flatMap((layer) => {
      const banned = tiers
        .slice(0, index + 1)
        .flat()
        .filter((other) => other !== layer);
      const allowed = tiers.slice(index + 1).flat().map((l) => l.name);
      // An empty path list would match every module: the top layer alone has nothing above it.
      if (banned.length === 0) return [];
      return {
        name: `layer-${layer.name}-upward`,
        comment: `${layer.name} imports only itself and the layers below it: ${allowed.join(', ') || 'none'}.`,
        severity: 'error',
        from: { path: layer.path },
        to: { path: banned.map((l) => l.path) },
      };
    }),
  );
}

const areaPath = (area) => `^src/domain/${area}/`;

function areaRules() {
  const tiers = flatten(AREAS);
  return tiers.flatMap((tier, index) =>
    tier.flatMap((area) => {
      const banned = tiers
        .slice(0, index + 1)
        .flat()
        .filter((other) => other !== area);
      const allowed = tiers.slice(index + 1).flat();
      if (banned.length === 0) return [];
      return {
        name: `area-${area}-upward`,
        comment: `domain/${area} imports only itself, the shared domain files and the areas below it: ${allowed.join(', ') || 'none'}.`,
        severity: 'error',
        from: { path: areaPath(area) },
        to: { path: banned.map(areaPath) },
      };
    }),
  );
}

const everyLayer = flatten(LAYERS).flat().map((l) => l.path);
const everyArea = flatten(AREAS).flat().map(areaPath);

module.exports = {
  forbidden: [
    ...layerRules(),
    {
      name: 'shared-domain-upward',
      comment: 'The shared domain files (src/domain/*.ts) sit under every area: they import no area.',
      severity: 'error',
      from: { path: SHARED_DOMAIN },
      to: { path: everyArea },
    },
    ...areaRules(),
    {
      name: 'no-cycle',
      comment: 'No import cycles in src/. A migration may import the type its index defines, which imports every migration.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, via: { pathNot: '^src/db/migrations/' } },
    },
    {
      name: 'db-fast-paths-only',
      comment:
        'Above src/db, the fast ways to run a query come from src/db/fast-paths.ts, the one module a handler author learns (docs/architecture.md), never from the files that implement them.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/db/' },
      to: { path: '^src/db/(compiled|prepared|raw-rows|unanswered|companion-writes|savepoint|entry-savepoint|pg-client|group-commit|statement-cache|pg-statement-names|row-factory)\\.ts$' },
    },
    {
      name: 'not-layered',
      comment: 'Every file under src/ belongs to a layer (and under src/domain/ to an area): add new places to .dependency-cruiser.cjs.',
      severity: 'error',
      from: { path: '^src/', pathNot: everyLayer },
      to: {},
    },
    {
      name: 'domain-not-in-area',
      comment: 'A folder under src/domain/ is an area: give it a place in AREAS.',
      severity: 'error',
      from: { path: '^src/domain/[^/]+/', pathNot: everyArea },
      to: {},
    },
  ],
  options: {
    // packages/client is its own package with its own checks; src/ may use it, its insides are not ruled here.
    doNotFollow: { path: ['node_modules', '^packages/'] },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a type import upward couples the layers just the same.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.d.ts'],
    },
  },
};
