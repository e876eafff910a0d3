// Plain JavaScript on purpose: it must run on any Node to say why the TypeScript entry points would not.
// Plinth runs TypeScript as written, which needs Node 24; `npm ci` installs it into node_modules (the `node`
// devDependency), and npm scripts run it from there. An older Node, or `npm ci --ignore-scripts` (which skips
// that install), would otherwise fail with "Unknown file extension .ts".
// With --installed it is the install's postinstall, the one line `npm ci` prints (.npmrc keeps npm's own warnings
// out): what the install put in place, and on which Node the scripts run, when npm ran on another.
const major = Number(process.versions.node.split('.')[0]);
const ready = major >= 24 && Boolean(process.features?.typescript);
if (process.argv.includes('--installed')) {
  // npm's user agent names the Node that runs npm: "npm/11.6.2 node/v20.20.2 linux x64 workspaces/false".
  const npmNode = /\bnode\/v(\S+)/.exec(process.env.npm_config_user_agent ?? '')?.[1];
  if (ready) {
    const other = npmNode !== undefined && npmNode !== process.versions.node;
    process.stdout.write(
      `plinth: installed, with Node.js ${process.versions.node} in node_modules: \`npm start\`, \`npm test\` and ` +
        `\`npm run cli\` run on it${other ? ` (this machine's Node ${npmNode} only runs npm)` : ''}.\n`,
    );
  } else {
    process.stderr.write(
      `plinth: installed, but without Node.js 24 in node_modules (the scripts would run on Node ${process.versions.node}): ` +
        "the `node` package's install script did not run (an allowScripts policy or --ignore-scripts?). " +
        'Run `npm ci` again, with scripts.\n',
    );
    process.exit(1);
  }
} else if (!ready) {
  process.stderr.write(
    `plinth: needs Node.js 24 with type stripping, but this is Node ${process.versions.node}. ` +
      'Run `npm ci` (without --ignore-scripts): it installs Node 24 into node_modules for the npm scripts.\n',
  );
  process.exit(1);
}
