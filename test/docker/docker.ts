import { execFile, spawnSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { needs } from '../skips/needs.ts';

/*
 * Docker for test/docker/: whether it can run here (and the daemon started the way .ci/run starts
 * it, scripts/docker/daemon.sh), the commands as a user types them, and waits on what they report.
 * Every name the tests create starts with `sytest` and this process's id, so a run cleans up only
 * its own containers, volumes and compose projects.
 */

export const root = path.resolve(import.meta.dirname, '../..');
export const prefix = `sytest${process.pid}`;
const run = promisify(execFile);

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** Why Docker cannot run here, or undefined when it can (starting the daemon if needed). */
function dockerMissing(): string | undefined {
  if (!has('docker')) return 'no docker command (apt-get install docker.io)';
  const daemon = spawnSync(path.join(root, 'scripts/docker/daemon.sh'), { encoding: 'utf8' });
  if (daemon.status !== 0) return daemon.stdout.trim() || daemon.stderr.trim();
  const base = spawnSync('docker', ['image', 'inspect', 'debian:bookworm-slim'], { stdio: 'ignore' });
  if (base.status !== 0 && (!has('debootstrap') || process.getuid?.() !== 0))
    return 'no debian:bookworm-slim image, and making it needs root and debootstrap';
  return undefined;
}

function loudly(why: string | undefined, what: string): string | undefined {
  if (why) console.warn(`\n!!! SKIPPED: ${what}: ${why}\n`);
  return why;
}

const dockerWhy = loudly(dockerMissing(), 'the container image tests (test/docker/)');
const composeWhy =
  dockerWhy ?? loudly(has('docker-compose') ? undefined : 'no docker-compose', 'the compose.yaml tests (test/docker/)');
export const needsDocker = needs(
  'Docker: docker.io running, or root to start it; debootstrap (.ci/run installs them)',
  !dockerWhy,
);
export const needsCompose = needs('docker-compose (.ci/run installs it)', !composeWhy);

/** Runs a command in the repository; rejects with its output when it fails. */
export async function sh(cmd: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout } = await run(cmd, args, {
      cwd: root,
      env: { ...process.env, ...env },
      maxBuffer: 1 << 26,
      timeout: 15 * 60_000,
    });
    return stdout.trim();
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`, {
      cause: err,
    });
  }
}

export const docker = (...args: string[]) => sh('docker', args);

/** Runs a step and prints how long it took (the numbers .ci/run's timing talks about). */
export async function timed<T>(what: string, step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await step();
  console.log(`docker: ${what} took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for `docker inspect`'s health status of a container to be `healthy`. */
export async function waitHealthy(container: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let status = '';
  while (Date.now() < deadline) {
    status = await docker('inspect', '-f', '{{.State.Status}} {{.State.Health.Status}}', container);
    if (status === 'running healthy') return;
    if (status.startsWith('exited')) break;
    await sleep(500);
  }
  const logs = await docker('logs', '--tail', '30', container).catch(() => '');
  throw new Error(`${container} is "${status}", not healthy:\n${logs}`);
}

/** Waits until a URL answers 200 (a compose service behind its published port). */
export async function waitAnswers(url: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await sleep(500);
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** What a container printed so far, both streams, as `docker logs` shows it to the operator. */
export const logsOf = (container: string) => sh('sh', ['-c', 'docker logs "$1" 2>&1', 'sh', container]);

/**
 * The setup code a gateway container printed at start (`setup code: ABCD-EFGH`), read as the operator reads it
 * (`docker logs`): the last one printed, for a container restarted meanwhile prints it again.
 */
export async function setupCodeIn(container: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let logs = '';
  while (Date.now() < deadline) {
    logs = await logsOf(container);
    const codes = [...logs.matchAll(/setup code: ([0-9A-Z]{4}-[0-9A-Z]{4})/g)];
    if (codes.length > 0) return codes.at(-1)![1]!;
    await sleep(500);
  }
  throw new Error(`${container} printed no setup code within ${timeoutMs / 1000} s:\n${logs.slice(-3000)}`);
}

/** The host as a container sees it (its network's gateway address). */
export const hostAddress = async (container: string) =>
  (await docker('inspect', '-f', '{{range .NetworkSettings.Networks}}{{.Gateway}} {{end}}', container)).split(' ')[0];

/** The local images the tests need: the base (debootstrap) and, for compose, PostgreSQL and Redis. */
export const makeBaseImage = () => timed('base image', () => sh(path.join(root, 'scripts/docker/base-image.sh'), []));
export const makeComposeImages = () =>
  timed('PostgreSQL and Redis images', () => sh(path.join(root, 'scripts/docker/test-images.sh'), []));

/** Removes what this run created (containers, then volumes and compose networks). */
export async function removeOurs(): Promise<void> {
  const ids = await docker('ps', '-aq', '--filter', `name=${prefix}`).catch(() => '');
  if (ids) await docker('rm', '-f', '-v', ...ids.split('\n')).catch(() => {});
  const volumes = await docker('volume', 'ls', '-q', '--filter', `name=${prefix}`).catch(() => '');
  if (volumes) await docker('volume', 'rm', '-f', ...volumes.split('\n')).catch(() => {});
  const networks = await docker('network', 'ls', '-q', '--filter', `name=${prefix}`).catch(() => '');
  if (networks) await docker('network', 'rm', ...networks.split('\n')).catch(() => {});
}
