/*
 * Installs the real agent clients the `agents` test project runs (test/agents/clients/package.json, pinned:
 * Claude Code, Codex, Gemini CLI, Qwen Code, OpenCode) from their lock files, and the package OpenCode installs into
 * its config folder at start (test/agents/clients/opencode-config/), so that a run needs nothing from the
 * registry. A fast no-op when every installed version already matches the pins (one package.json read each).
 * Kept out of the root package: the clients weigh ~1.2 GB. Called by the agents project's Vitest globalSetup
 * (test/agents/global-setup.ts), or by hand: `node scripts/install-agent-clients.mjs`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLIENTS_DIR = path.join(root, 'test/agents/clients');
const FOLDERS = [CLIENTS_DIR, path.join(CLIENTS_DIR, 'opencode-config')];

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The pinned packages of a folder whose installed version differs (or that are missing). */
export function outdated(dir) {
  const pins = readJson(path.join(dir, 'package.json')).dependencies ?? {};
  return Object.entries(pins)
    .filter(([name, version]) => {
      const installed = path.join(dir, 'node_modules', name, 'package.json');
      return !existsSync(installed) || readJson(installed).version !== version;
    })
    .map(([name, version]) => `${name}@${version}`);
}

export function installAgentClients({ quiet = false } = {}) {
  for (const dir of FOLDERS) {
    const missing = outdated(dir);
    if (missing.length === 0) continue;
    const started = Date.now();
    if (!quiet) console.log(`agent clients: npm install in ${path.relative(root, dir)} (${missing.join(', ')})`);
    // `npm install` from the lock, not `npm ci`: the registry this project reaches serves only the Linux
    // builds of the clients' per-platform packages, so the lock cannot list the others and `npm ci` refuses
    // it as out of sync. `--no-save` keeps the lock file as committed.
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', dir], {
      cwd: dir,
      stdio: quiet ? 'ignore' : 'inherit',
      // npm would otherwise read the root project's settings for a nested prefix.
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    const left = outdated(dir);
    if (left.length) throw new Error(`agent clients: still not installed after npm install: ${left.join(', ')}`);
    if (!quiet) console.log(`agent clients: installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) installAgentClients();
