// `npm run package [-- --out <dir>] [--client <dir>] [--no-strip]`: builds the single executable
// <out>/switchyard-<platform>-<arch> (default out: dist) with Node's single-executable-application
// support: this Node binary (process.execPath), copied, with a preparation blob injected by postject.
// The blob holds scripts/sea/main.ts (the SEA's main script) and, as assets, the whole server in one
// CommonJS file, the built console (vite build into <out>/client, or the prebuilt --client folder),
// the native addons (better-sqlite3, @node-rs/argon2) and a manifest with their checksums.
// Migrations are modules of the server bundle (migrations/index.ts imports them), not files.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { inject } from 'postject';
import { seaNodeFlags } from './sea/node-options.mjs';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const { values } = parseArgs({
  options: {
    out: { type: 'string', default: path.join(root, 'dist') },
    client: { type: 'string' },
    'no-strip': { type: 'boolean', default: false },
  },
});
const out = path.resolve(values.out);
const work = path.join(out, 'sea');
const target = `${process.platform}-${process.arch}`;
const executable = path.join(out, `switchyard-${target}`);
const started = Date.now();
const step = (what) => console.log(`[package] ${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

if (process.platform !== 'linux')
  throw new Error('npm run package builds Linux executables only (tested on linux-x64)');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

// The console: built fresh unless a build is given.
const clientDir = values.client ? path.resolve(values.client) : path.join(out, 'client');
if (!values.client) {
  step('building the console');
  const vite = spawnSync(
    process.execPath,
    [
      path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js'),
      'build',
      '--outDir',
      clientDir,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    // The shipped console is React's production build even when a test runs this (Vitest sets NODE_ENV=test).
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (vite.status !== 0) process.exit(1);
}
const consoleFiles = listFiles(clientDir);
if (!consoleFiles.includes('index.html')) throw new Error(`${clientDir} holds no console build (index.html)`);

// The native addons the server loads, by the name the loader stub asks for.
const addons = {
  'better_sqlite3.node': betterSqliteAddon(),
  'argon2.node': argon2Addon(),
};

step('bundling the server');
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
  absWorkingDir: root,
};
const server = await build({
  ...common,
  entryPoints: ['scripts/sea/server-entry.ts'],
  outfile: path.join(work, 'server.cjs'),
  // pg's optional native client; pg only loads it when asked for `pg.native`, which the gateway never is.
  external: ['pg-native'],
  // The source stays in memory for V8 to compile functions as they are first called: whitespace and
  // syntax minified it is ~40% smaller (13.6 -> 8.8 MB, ~14 MB less RSS); names are kept for stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  plugins: [nativeAddons(), absentModules()],
});
onlyBuiltinsLeft(server.metafile, ['pg-native']);
const main = await build({
  ...common,
  entryPoints: ['scripts/sea/main.ts'],
  outfile: path.join(work, 'main.cjs'),
  metafile: true,
});
onlyBuiltinsLeft(main.metafile, []);

// V8's code cache for the server bundle: compiling its 9 MB takes ~0.4 s at every start, ~0.04 s with the
// cache. V8 accepts a cache only from the same Node build with the same V8 flags, so it is made by this
// Node under the flags the executable's gateway process runs with (node-options.mjs). With other V8 flags
// in an operator's NODE_OPTIONS it is rejected and the bundle compiles as without it.
step('making the code cache');
const cache = spawnSync(
  process.execPath,
  [
    '-e',
    `const { Script } = require('node:vm'); const { wrap } = require('node:module'); const fs = require('node:fs');
     const script = new Script(wrap(fs.readFileSync(process.argv[1], 'utf8')), { filename: 'switchyard-server.cjs' });
     fs.writeFileSync(process.argv[2], script.createCachedData());`,
    path.join(work, 'server.cjs'),
    path.join(work, 'server.cache'),
  ],
  { env: { ...process.env, NODE_OPTIONS: seaNodeFlags().join(' ') }, encoding: 'utf8' },
);
if (cache.status !== 0) throw new Error(`making the code cache failed:\n${cache.stderr}`);

const assets = {
  'server.cjs': path.join(work, 'server.cjs'),
  'server.cache': path.join(work, 'server.cache'),
  ...Object.fromEntries(Object.entries(addons).map(([name, file]) => [`addons/${name}`, file])),
  ...Object.fromEntries(consoleFiles.map((rel) => [`console/${rel}`, path.join(clientDir, rel)])),
};
const buildHash = createHash('sha256');
for (const [key, file] of Object.entries(assets).sort()) buildHash.update(key).update(readFileSync(file));
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
/** @type {import('../server/sea-assets.ts').SeaManifest} */
const manifest = {
  version,
  build: buildHash.digest('hex').slice(0, 12),
  addons: Object.fromEntries(
    Object.entries(addons).map(([name, file]) => [name, createHash('sha256').update(readFileSync(file)).digest('hex')]),
  ),
  console: consoleFiles,
};
writeFileSync(path.join(work, 'sea-manifest.json'), JSON.stringify(manifest, null, 2));
assets['sea-manifest.json'] = path.join(work, 'sea-manifest.json');

step('writing the preparation blob');
const seaConfig = {
  main: path.join(work, 'main.cjs'),
  output: path.join(work, 'sea-prep.blob'),
  disableExperimentalSEAWarning: true,
  assets,
};
writeFileSync(path.join(work, 'sea-config.json'), JSON.stringify(seaConfig, null, 2));
const blob = spawnSync(process.execPath, ['--experimental-sea-config', path.join(work, 'sea-config.json')], {
  cwd: work,
  encoding: 'utf8',
});
if (blob.status !== 0) throw new Error(`node --experimental-sea-config failed:\n${blob.stderr}`);

step(`injecting it into a copy of ${process.execPath} (Node ${process.version})`);
rmSync(executable, { force: true });
copyFileSync(process.execPath, executable);
// Debug sections and the symbol table (Debian's node: 99 -> 86 MB). Native crash reports then name fewer
// functions; --no-strip keeps them.
if (!values['no-strip'] && spawnSync('strip', [executable]).status === 0) step('stripped symbols and debug info');
// postject's ELF library (LIEF) warns "Can't find string offset for section name '.note.100'" for the note
// sections of Node's binary; harmless (nodejs/postject#83, nodejs/node#45038), so it is left out of the output.
const warn = console.warn;
console.warn = (...args) => {
  if (!String(args[0]).includes("Can't find string offset for section name")) warn(...args);
};
try {
  await inject(executable, 'NODE_SEA_BLOB', readFileSync(seaConfig.output), {
    sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  });
} finally {
  console.warn = warn;
}
chmodSync(executable, 0o755);
const mb = (statSync(executable).size / 2 ** 20).toFixed(1);
step(
  `${path.relative(process.cwd(), executable) || executable}: ${mb} MB, version ${version}, build ${manifest.build}`,
);
console.log(`[package] runs on ${target} with ${requirements([process.execPath, ...Object.values(addons)])}`);

/**
 * The newest glibc and libstdc++ symbol versions Node and the addons link against: what the machine that
 * runs the executable needs (an addon compiled here from source asks for this machine's versions).
 */
function requirements(files) {
  const newest = (re) => {
    const found = files.flatMap((f) => [...readFileSync(f).toString('latin1').matchAll(re)].map((m) => m[1]));
    const key = (v) =>
      v
        .split('.')
        .map((n) => n.padStart(4, '0'))
        .join('.');
    return found.sort((a, b) => key(a).localeCompare(key(b))).at(-1);
  };
  return `glibc >= ${newest(/GLIBC_(2\.\d+)/g)} and libstdc++ >= GLIBCXX_${newest(/GLIBCXX_(3\.4\.\d+)/g)}`;
}

/** Every file under `dir`, as paths relative to it with forward slashes. */
function listFiles(dir, rel = '') {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? listFiles(dir, p) : [p];
  });
}

/**
 * better-sqlite3's addon as its loader picks it (lib/binding.js): one compiled here on purpose (build/Release),
 * else the prebuilt one the package ships for this platform (prebuilds/linux-x64.node).
 */
function betterSqliteAddon() {
  const dir = path.dirname(require.resolve('better-sqlite3/package.json'));
  const built = path.join(dir, 'build/Release/better_sqlite3.node');
  try {
    statSync(built);
    return built;
  } catch {
    return path.join(dir, 'prebuilds', `${target}.node`);
  }
}

/** @node-rs/argon2's addon for this machine (the glibc build: the executable is a glibc program). */
function argon2Addon() {
  const pkg = `@node-rs/argon2-${target}${process.platform === 'linux' ? '-gnu' : ''}`;
  const dir = path.dirname(require.resolve(`${pkg}/package.json`, { paths: [require.resolve('@node-rs/argon2')] }));
  const file = readdirSync(dir).find((f) => f.endsWith('.node'));
  if (!file) throw new Error(`${pkg} holds no .node file`);
  return path.join(dir, file);
}

/**
 * Modules a dependency tries inside try/catch and does without: ws's native helpers (`bufferutil`,
 * `utf-8-validate`, not installed; Node 20 lacks http.websocketMask, so ws asks for bufferutil as it loads)
 * and undici's probe for `node:sqlite` (a built-in only from Node 22). esbuild leaves such a `require()` in
 * the bundle, where it reaches the SEA's `require`, which loads built-in modules only: it throws, as wanted,
 * but first prints Node's "require() ... only supports loading built-in modules" warning at every start.
 * Bundled as a module that throws what plain Node throws for them (MODULE_NOT_FOUND, ERR_UNKNOWN_BUILTIN_MODULE),
 * the dependency takes its fallback without reaching that require. The executable embeds this Node
 * (process.execPath), so what is built-in here is what is built-in there.
 */
function absentModules() {
  // cardinal: mysql2's optional SQL highlighter for its debug output (the importer's MySQL source).
  const packages = ['bufferutil', 'utf-8-validate', 'cardinal'];
  const thrower = (message, code) =>
    `throw Object.assign(new Error(${JSON.stringify(message)}), { code: ${JSON.stringify(code)} });`;
  return {
    name: 'sea-absent-modules',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^(${packages.join('|')})$`) }, (a) => ({
        path: a.path,
        namespace: 'sea-absent',
      }));
      b.onResolve({ filter: /^node:/ }, (a) =>
        isBuiltin(a.path) ? undefined : { path: a.path, namespace: 'sea-absent' },
      );
      b.onLoad({ filter: /.*/, namespace: 'sea-absent' }, (a) => ({
        contents: a.path.startsWith('node:')
          ? thrower(`No such built-in module: ${a.path}`, 'ERR_UNKNOWN_BUILTIN_MODULE')
          : thrower(`Cannot find module '${a.path}'`, 'MODULE_NOT_FOUND'),
        loader: 'js',
      }));
    },
  };
}

/**
 * Fails the build when the server bundle still requires a package at run time (a require esbuild could not
 * resolve, kept because it sits in a try block): the SEA's `require` would warn at start and fail. `allowed`
 * are externals the gateway never loads (pg's native client, only behind `pg.native`).
 */
function onlyBuiltinsLeft(metafile, allowed) {
  const left = Object.values(metafile.outputs)
    .flatMap((o) => o.imports)
    .filter((i) => i.external && !isBuiltin(i.path) && !allowed.includes(i.path))
    .map((i) => i.path);
  if (left.length > 0)
    throw new Error(`the server bundle requires packages the single executable cannot load: ${[...new Set(left)]}`);
}

/**
 * Native addons cannot be bundled: better-sqlite3's `bindings` and @node-rs/argon2's platform loader
 * become stubs that load the embedded addon (server/sea-assets.ts). Any other native addon fails the
 * build rather than failing at run time.
 */
function nativeAddons() {
  const seaAssets = path.join(root, 'server/sea-assets.ts');
  const stubs = {
    // better-sqlite3 13's lib/binding.js: getBinding() loads the default addon (the server passes no nativeBinding).
    binding: `const { loadNativeAddon } = require(${JSON.stringify(seaAssets)});\nexports.getBinding = () => loadNativeAddon('better_sqlite3.node');`,
    argon2: `module.exports = require(${JSON.stringify(seaAssets)}).loadNativeAddon('argon2.node');`,
  };
  return {
    name: 'sea-native-addons',
    setup(b) {
      b.onResolve({ filter: /^\.\/binding$/ }, (a) =>
        a.importer.includes(`${path.sep}better-sqlite3${path.sep}`)
          ? { path: 'binding', namespace: 'sea-native' }
          : undefined,
      );
      b.onResolve({ filter: /^@node-rs\/argon2$/ }, () => ({ path: 'argon2', namespace: 'sea-native' }));
      b.onResolve({ filter: /\.node$/ }, (a) => ({
        errors: [{ text: `unhandled native addon ${a.path} (from ${a.importer})` }],
      }));
      b.onLoad({ filter: /.*/, namespace: 'sea-native' }, (a) => ({
        contents: stubs[a.path],
        loader: 'js',
        resolveDir: root,
      }));
    },
  };
}
