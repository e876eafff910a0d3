/**
 * The architecture's dependency rules (docs/architecture.md, "The rules"), checked by dependency-cruiser in
 * test/docs/dependencies.test.ts, so in `npm test`, with no exception. By hand: `npx depcruise src`.
 *
 * The rooms: db/ at the bottom; platform/, the core (the request pipeline and the mechanisms every module shares);
 * modules/<name>/ and products/<name>/, the modules, each with an index.ts that is its public face; dashboard/, a
 * module that reads the others; the composition root (the top-level files of src/) and cli/, which see everything.
 *
 * Type-only imports count (tsPreCompilationDeps): a type names the module it comes from, so a lower room that imports
 * a higher room's type is bound to its shape, and a circle of types is still two files that cannot be read apart.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'db-imports-nothing-above-it',
      comment:
        'db/ is the bottom room: it knows nothing of the core, the modules, the products, the dashboard or the CLI.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/(platform|modules|products|dashboard|cli)/|^src/[^/]+\\.ts$' },
    },
    {
      name: 'core-never-imports-a-module',
      comment:
        'The core (platform/) serves every module; none is known to it: a module hands the core what it needs ' +
        '(its error codes, secret shapes, event types, migrations) through the composition root (modules.ts), which ' +
        'alone sees both, with config.ts and app.ts.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/(modules|products|dashboard|cli)/|^src/[^/]+\\.ts$' },
    },
    {
      name: 'http-imports-only-kit',
      comment:
        "http/, the request pipeline's parts, is the core's lowest room after kit/: of the core it imports only kit/ " +
        '(what it reads of the settings is a type of its own, handed in by app.ts).',
      severity: 'error',
      from: { path: '^src/platform/http/' },
      to: { path: '^src/platform/', pathNot: '^src/platform/(http|kit)/' },
    },
    {
      name: 'kit-imports-only-kit',
      comment: 'kit/ holds small pure helpers: nothing from the rest of the core, from a module or from db/.',
      severity: 'error',
      from: { path: '^src/platform/kit/' },
      to: { path: '^src/', pathNot: '^src/platform/kit/' },
    },
    {
      name: 'a-module-imports-another-only-through-its-index',
      comment:
        "A module's index.ts is its public face: another module (or product) imports that file, never one behind it, " +
        'so that a module can change its insides without its readers knowing.',
      severity: 'error',
      from: { path: '^src/(modules|products)/([^/]+)/' },
      to: {
        path: '^src/(modules|products)/[^/]+/',
        pathNot: ['^src/$1/$2/', '^src/(modules|products)/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'the-dashboard-reads-modules-through-their-index',
      comment:
        "The dashboard is a module too: it reads the others' public faces (their index.ts), never their insides.",
      severity: 'error',
      from: { path: '^src/dashboard/' },
      to: { path: '^src/(modules|products)/', pathNot: '^src/(modules|products)/[^/]+/index\\.ts$' },
    },
    {
      name: 'modules-never-import-the-dashboard-or-the-root',
      comment:
        'The dashboard reads the modules; a module does not know it is shown. Nor does a module import the ' +
        'composition root (modules.ts, ops.ts, config.ts, app.ts): the root imports it.',
      severity: 'error',
      from: { path: '^src/(modules|products)/' },
      to: { path: '^src/(dashboard|cli)/|^src/[^/]+\\.ts$' },
    },
    {
      name: 'events-never-import-webhooks',
      comment: 'The outbox knows nothing of its readers: the fan-out is handed to it (AfterNumbered), not imported.',
      severity: 'error',
      from: { path: '^src/modules/events/' },
      to: { path: '^src/modules/webhooks/' },
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
