/**
 * The architecture's dependency rules (docs/architecture.md, "Dependencies point one way"), checked by
 * dependency-cruiser in test/docs/dependencies.test.ts, so in `npm test`. By hand: `npx depcruise src`.
 *
 * Type-only imports count (tsPreCompilationDeps): a type names the module it comes from, so a lower room that imports
 * a higher room's type is bound to its shape, and a circle of types is still two files that cannot be read apart.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'db-imports-nothing-above-it',
      comment: 'db/ is the bottom room: it knows nothing of the platform, the products, the dashboard or the CLI.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/(platform|products|dashboard|cli)/|^src/(app|config|products|server|supervisor)\\.ts$' },
    },
    {
      name: 'platform-never-imports-a-product',
      comment:
        'The platform serves every product and the dashboard; neither is known to it. The top-level files (products.ts' +
        ' the registry, config.ts assembled from it, app.ts) see both: platform/ imports none of them.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/(products|dashboard)/|^src/[^/]+\\.ts$' },
    },
    {
      name: 'products-never-import-the-dashboard',
      comment: 'The dashboard reads the products; a product does not know it is shown.',
      severity: 'error',
      from: { path: '^src/products/' },
      to: { path: '^src/dashboard/' },
    },
    {
      name: 'kit-imports-only-kit',
      comment: 'kit/ holds small pure helpers: nothing from the rest of platform/, from products/ or from db/.',
      severity: 'error',
      from: { path: '^src/platform/kit/' },
      to: { path: '^src/', pathNot: '^src/platform/kit/' },
    },
    {
      name: 'events-never-import-webhooks',
      comment: 'The outbox knows nothing of its readers: the fan-out is handed to it (AfterNumbered), not imported.',
      severity: 'error',
      from: { path: '^src/platform/events/' },
      to: { path: '^src/platform/webhooks/' },
    },
    {
      name: 'money-moves-only-through-ledger-move',
      comment:
        'A journal, a balance change or a hold is written only by ledger/ (move.ts), which locks and checks every side ' +
        'first: a service that posted a journal itself could forget a check (docs/architecture.md, "Moving money").',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/products/fintech/ledger/' },
      to: { path: '^src/products/fintech/ledger/post\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circle',
      comment: 'Two files that import each other (through any path) can only be read, tested and moved together.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'drivers-only-in-db',
      comment:
        'Only db/ talks to a database driver; migrations aside, whose DDL may differ per backend (docs/architecture.md).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/db/|/migrations/' },
      to: { path: '^(pg|node:sqlite)$|^node_modules/(@types/)?pg/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    includeOnly: { path: '^src/|^node_modules/(@types/)?pg/|^(pg|node:sqlite)$' },
  },
};
