import { spawn } from 'node:child_process';
import { wrap } from 'node:module';
import path from 'node:path';
import sea from 'node:sea';
import { Script } from 'node:vm';
import { extractConsole, seaVersion } from '../../server/sea-assets.ts';
import { helpText } from './help.ts';
import { relaunchEnv, RELAUNCHED, seaNodeFlags } from './node-options.mjs';
import type * as ServerEntry from './server-entry.ts';

/*
 * The single executable's main script (CommonJS: Node 20 runs nothing else as a SEA's main). It stays
 * small: the server is the asset `server.cjs`, compiled only in the process that runs it. `switchyard`
 * starts itself once more with `npm start`'s Node flags and allocator (node-options.mjs explains why);
 * the parent only passes signals on and returns the child's exit code.
 */

const version = `v${seaVersion() ?? '0.0.0'}`;

/** Runs the embedded server bundle and returns its exports. */
function loadServer(): typeof ServerEntry {
  const filename = path.join(path.dirname(process.execPath), 'switchyard-server.cjs');
  // With the code cache package-sea.mjs made (rejected, and ignored, when NODE_OPTIONS carries other V8 flags).
  const cachedData = Buffer.from(sea.getAsset('server.cache'));
  const script = new Script(wrap(sea.getAsset('server.cjs', 'utf8')), { filename, cachedData });
  // Under exactly the flags it was made with, a rejection means a broken build (~0.4 s slower starts): say so.
  if (script.cachedDataRejected && process.env.NODE_OPTIONS === seaNodeFlags().join(' '))
    console.error('switchyard: the embedded code cache was rejected; the server compiles without it');
  const module = { exports: {} as typeof ServerEntry };
  // The SEA's `require` loads Node's built-in modules, all the bundle asks for.
  (script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    require,
    module,
    filename,
    path.dirname(filename),
  );
  return module.exports;
}

/** The parent: starts the child with the flags, forwards signals, exits as it exits. */
function relaunch(args: string[]) {
  const child = spawn(process.execPath, args, { stdio: 'inherit', env: relaunchEnv() });
  const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
  for (const signal of signals) process.on(signal, () => child.kill(signal));
  child.on('error', (err) => {
    console.error(`could not start the gateway process: ${err.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (code !== null) process.exit(code);
    // Killed by a signal: end the same way, so a supervisor sees what happened.
    for (const s of signals) process.removeAllListeners(s);
    process.kill(process.pid, signal ?? 'SIGTERM');
  });
}

/** The child: a parent killed outright (SIGKILL) cannot pass anything on, so notice it and stop gracefully. */
function stopWithParent() {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, 1000).unref();
}

/**
 * `switchyard healthcheck`: 0 when this machine's gateway (PORT, HOST) answers /healthz within 5 s, else 1.
 * The container's HEALTHCHECK, as slim images have no curl.
 */
async function healthcheck(env = process.env): Promise<number> {
  const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT || 3000}/healthz`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (res.ok) return 0;
    console.error(`${url}: HTTP ${res.status}`);
  } catch (err) {
    console.error(`${url}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return 1;
}

async function main(args: string[]): Promise<number | undefined> {
  const [command, ...rest] = args;
  switch (command) {
    case '--version':
    case '-v':
      console.log(version);
      return 0;
    case '--help':
    case '-h':
    case 'help':
      console.log(helpText(version));
      return 0;
    case 'import':
      return loadServer().runImport(rest);
    case 'healthcheck':
      return healthcheck();
    case undefined:
      if (!process.env[RELAUNCHED]) {
        relaunch(args);
        return undefined;
      }
      stopWithParent();
      process.env.CLIENT_DIST ||= extractConsole();
      await loadServer().serve();
      return undefined;
    default:
      console.error(`unknown command: ${command} (switchyard --help lists the commands)`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
