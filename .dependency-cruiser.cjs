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
      comment: 'The platform serves every product and the dashboard; neither is known to it (products.ts is the seam).',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/(products|dashboard)/|^src/products\\.ts$' },
    },
    {
      name: 'products-never-import-the-dashboard',
      comment: 'The dashboard reads the products; a product does not know it is shown.',
      severity: 'error',
      from: { path: '^src/products/' },
      to: { path: '^src/dashboard/' },
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
