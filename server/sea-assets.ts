import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sea from 'node:sea';

/*
 * What the single executable (`npm run package`, scripts/package-sea.mjs) carries besides its code:
 * native addons, the built console and the version, stored as SEA assets. A native addon cannot be
 * loaded from memory, and @fastify/static serves files, so both are extracted once into a cache
 * folder inside DATA_DIR, named after the build (a new build extracts afresh and removes the older
 * build's folder). The addons are checked against the SHA-256 recorded at build time before every
 * load, so a damaged or swapped file in that folder is replaced, never loaded. Outside a single
 * executable (`npm start`, tests) nothing here is used: isSingleExecutable() is false.
 */

/** What scripts/package-sea.mjs records in the `sea-manifest.json` asset. */
export interface SeaManifest {
  version: string;
  /** Short hash of every asset: names the cache folder of this build. */
  build: string;
  /** Addon file name (better_sqlite3.node, argon2.node) -> SHA-256 hex of its bytes. */
  addons: Record<string, string>;
  /** Paths of the console's files, relative to its root, each stored as the asset `console/<path>`. */
  console: string[];
}

export const isSingleExecutable = (): boolean => sea.isSea();

let manifest: SeaManifest | undefined;
function seaManifest(): SeaManifest {
  return (manifest ??= JSON.parse(sea.getAsset('sea-manifest.json', 'utf8')) as SeaManifest);
}

/** The build's version (`0.1.0`), or undefined outside a single executable. */
export function seaVersion(): string | undefined {
  return isSingleExecutable() ? seaManifest().version : undefined;
}

/** DATA_DIR/cache/<build>: where this build's addons and console are extracted (DATA_DIR resolved as config.ts does). */
export function seaCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const m = seaManifest();
  return path.join(path.resolve(env.DATA_DIR || './data'), 'cache', `switchyard-${m.version}-${m.build}`);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Makes this build's cache folder; removes the folders older builds left beside it. */
function ensureCacheDir(): string {
  const dir = seaCacheDir();
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const old of readdirSync(path.dirname(dir)))
      if (old.startsWith('switchyard-') && old !== path.basename(dir))
        rmSync(path.join(path.dirname(dir), old), { recursive: true, force: true });
  }
  return dir;
}

/** Writes through a temporary name and renames, so a concurrent start never sees half a file. */
function writeAtomically(file: string, bytes: Uint8Array, mode: number) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes, { mode });
  renameSync(tmp, file);
}

/**
 * Loads a native addon embedded in the executable (better-sqlite3's default binding,
 * @node-rs/argon2): extracted on first use, its checksum verified on every load.
 */
export function loadNativeAddon(name: string): unknown {
  const expected = seaManifest().addons[name];
  if (!expected) throw new Error(`native addon ${name} is not part of this executable`);
  const file = path.join(ensureCacheDir(), name);
  if (!existsSync(file) || sha256(readFileSync(file)) !== expected) {
    const bytes = new Uint8Array(sea.getAsset(`addons/${name}`));
    if (sha256(bytes) !== expected) throw new Error(`native addon ${name}: the executable is damaged (checksum)`);
    writeAtomically(file, bytes, 0o500);
    if (sha256(readFileSync(file)) !== expected) throw new Error(`native addon ${name}: ${file} does not verify`);
  }
  const mod = { exports: {} as unknown };
  process.dlopen(mod, file);
  return mod.exports;
}

/** Extracts the embedded console (once per build) and returns its folder, for CLIENT_DIST. */
export function extractConsole(): string {
  const root = path.join(ensureCacheDir(), 'console');
  if (existsSync(root)) return root;
  // Into a temporary folder renamed when complete: the folder exists only whole.
  const tmp = `${root}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  for (const rel of seaManifest().console) {
    const file = path.join(tmp, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, new Uint8Array(sea.getAsset(`console/${rel}`)));
  }
  try {
    renameSync(tmp, root);
  } catch (err) {
    // Another instance starting on the same DATA_DIR got there first.
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(root)) throw err;
  }
  return root;
}
