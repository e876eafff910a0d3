// Plain JavaScript on purpose: it must run on any Node to say why the TypeScript entry points would not.
// Plinth runs TypeScript as written, which needs Node 24; `npm ci` installs it into node_modules (the `node`
// devDependency), and npm scripts run it from there. An older Node, or `npm ci --ignore-scripts` (which skips
// that install), would otherwise fail with "Unknown file extension .ts".
const major = Number(process.versions.node.split('.')[0]);
if (major < 24 || !process.features?.typescript) {
  process.stderr.write(
    `plinth: needs Node.js 24 with type stripping, but this is Node ${process.versions.node}. ` +
      'Run `npm ci` (without --ignore-scripts): it installs Node 24 into node_modules for the npm scripts.\n',
  );
  process.exit(1);
}
