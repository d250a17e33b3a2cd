import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeOpenAI } from '../../scripts/fake-upstream/server.ts';
import { validateOpenAI } from '../../scripts/fake-upstream/strict/index.ts';
import { serverText } from '../../shared/server-messages.ts';
import { freePort } from '../gateway-process.ts';
import { ensureExecutable } from '../sea-executable.ts';
import {
  docker,
  hostAddress,
  logsOf,
  makeBaseImage,
  makeComposeImages,
  needsCompose,
  needsDocker,
  prefix,
  removeOurs,
  setupCodeIn,
  sh,
  timed,
  waitAnswers,
  waitHealthy,
} from './docker.ts';
import { api, chat, firstDay, ROOT, type Session, signIn, tokenKeys } from '../gateway-client.ts';

/*
 * The container recipe as a user follows it (README, "A container"): `npm run package`, then
 * `docker build -t switchyard .` from the Dockerfile, `docker run` on a named /data volume, and
 * compose.yaml with docker-compose, alone and with its `scale` profile. No registry is reachable in
 * CI: the base image is made with debootstrap and the PostgreSQL and Redis images compose names
 * are built from Debian's packages (scripts/docker/). Skipped, loudly, where Docker cannot run.
 * Behind a published port the gateway sees the Docker bridge, not loopback, so its setup wizard asks for
 * the setup code: read from `docker logs`, as the README tells the operator (issue 39).
 */

const MINUTES = 60_000;
let fake: FakeUpstream;
let fakePort: number;

beforeAll(async () => {
  if (!needsDocker.ok) return;
  // The executable scripts/sea.test.ts also builds and tests: built once for both.
  const exe = await timed('the single executable (npm run package, or reused)', ensureExecutable);
  console.log(exe.log);
  await makeBaseImage();
  // As the Dockerfile's first lines say, under the name compose.yaml uses.
  await timed('docker build -t switchyard .', () => docker('build', '-q', '-t', 'switchyard', '.'));
  fake = await startFakeOpenAI({ host: '0.0.0.0', validate: validateOpenAI });
  fakePort = Number(new URL(fake.url).port);
}, 30 * MINUTES);

afterAll(async () => {
  if (!needsDocker.ok) return;
  await removeOurs();
  await fake?.close();
}, 5 * MINUTES);

/** `docker run` of the image on a volume, with the health check every second (a `docker run` flag). */
async function runGateway(name: string, volume: string): Promise<string> {
  await docker(
    'run',
    '-d',
    '--name',
    name,
    '-v',
    `${volume}:/data`,
    '-p',
    '127.0.0.1::3000',
    '--health-interval',
    '1s',
    'switchyard',
  );
  await timed(`${name} healthy`, () => waitHealthy(name));
  const published = await docker('port', name, '3000/tcp');
  return `http://${published.split('\n')[0]}`;
}

/** POST /api/setup as a browser elsewhere would send it, with no setup code or a wrong one: the raw answer. */
async function setupWithout(base: string, setupCode: string | undefined) {
  const res = await fetch(`${base}/api/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...ROOT, confirmPassword: ROOT.password, setup_code: setupCode }),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe.skipIf(!needsDocker.ok)(needsDocker.name('the image from the Dockerfile'), () => {
  it(
    'runs non-root on the /data volume, relays a call, and keeps its data for the next container',
    async () => {
      const volume = `${prefix}-data`;
      const base = await runGateway(`${prefix}-first`, volume);

      // The gateway and its health checks run as the image's user, uid 10001, not root.
      const pid = await docker('inspect', '-f', '{{.State.Pid}}', `${prefix}-first`);
      const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      expect(uid).toBe('10001');
      expect(await docker('exec', `${prefix}-first`, 'switchyard', 'healthcheck').then(() => 'ok')).toBe('ok');

      const upstream = `http://${await hostAddress(`${prefix}-first`)}:${fakePort}`;
      // From outside the container nobody becomes root without the code the gateway printed at start.
      expect((await api(base, 'GET', '/api/setup')).data).toMatchObject({ status: false, setup_code_required: true });
      for (const [setupCode, message] of [
        [undefined, serverText('setup.code_required')],
        ['ABCD-EFGH', serverText('setup.code_wrong')],
      ] as const) {
        const refused = await setupWithout(base, setupCode);
        expect(refused).toEqual({ status: 403, body: { success: false, message } });
      }
      expect((await api(base, 'GET', '/api/setup')).data).toMatchObject({ status: false });
      // With the code from `docker logs`, the operator's first day goes on as before.
      const { key } = await firstDay(base, upstream, {}, await setupCodeIn(`${prefix}-first`));
      const text = await chat(base, key, 'Hello from a container');
      expect(text.length).toBeGreaterThan(0);
      expect(fake.requests.at(-1)?.body).toMatchObject({ model: 'gpt-4o' });

      // `docker stop` sends SIGTERM; the gateway finishes and exits 0 within the grace period.
      await timed('docker stop', () => docker('stop', '-t', '40', `${prefix}-first`));
      expect(await docker('inspect', '-f', '{{.State.ExitCode}}', `${prefix}-first`)).toBe('0');

      const again = await runGateway(`${prefix}-second`, volume);
      // Set up already: the second container prints no setup code (it would be worth nothing).
      expect(await logsOf(`${prefix}-second`)).not.toContain('setup code');
      const admin = await signIn(again);
      const channels = JSON.stringify(
        (await api(again, 'GET', '/api/channel/?p=1&page_size=10', undefined, admin)).data,
      );
      expect(channels).toContain(upstream);
      expect(await tokenKeys(again, admin)).toEqual([key]);
      const logs = (await api(again, 'GET', '/api/log/?p=1&page_size=10', undefined, admin)).data as {
        items: { model_name: string; token_name: string }[];
      };
      expect(logs.items).toContainEqual(expect.objectContaining({ model_name: 'gpt-4o', token_name: 'docker' }));
      // The same key still relays from the second container.
      expect((await chat(again, key, 'Hello again')).length).toBeGreaterThan(0);
    },
    10 * MINUTES,
  );
});

describe.skipIf(!needsCompose.ok)(needsCompose.name('compose.yaml'), () => {
  const project = `${prefix}compose`;
  let ports: Record<'SWITCHYARD_PORT' | 'SWITCHYARD_PORT_2', string>;
  const compose = (env: Record<string, string>, ...args: string[]) =>
    sh('docker-compose', ['-p', project, ...args], { ...ports, ...env });
  const scale = {
    SQL_DSN: 'postgres://switchyard:switchyard@postgres:5432/switchyard',
    REDIS_URL: 'redis://redis:6379',
  };

  beforeAll(async () => {
    await makeComposeImages();
    ports = { SWITCHYARD_PORT: String(await freePort()), SWITCHYARD_PORT_2: String(await freePort()) };
  }, 20 * MINUTES);

  afterAll(async () => {
    await compose(scale, '--profile', 'scale', 'down', '-v', '--remove-orphans').catch(() => {});
  }, 5 * MINUTES);

  it(
    'comes up alone on SQLite and answers /healthz',
    async () => {
      await timed('docker-compose up -d', () => compose({}, 'up', '-d'));
      await waitAnswers(`http://127.0.0.1:${ports.SWITCHYARD_PORT}/healthz`);
      // Only the gateway: the scale profile's services stay down.
      expect((await compose({}, 'ps', '--services', '--filter', 'status=running')).split('\n')).toEqual(['switchyard']);
      await compose({}, 'down', '-v');
    },
    10 * MINUTES,
  );

  it(
    'with --profile scale, two replicas share sessions and rate limits through PostgreSQL and Redis',
    async () => {
      await timed('docker-compose --profile scale up -d', () => compose(scale, '--profile', 'scale', 'up', '-d'));
      const one = `http://127.0.0.1:${ports.SWITCHYARD_PORT}`;
      const two = `http://127.0.0.1:${ports.SWITCHYARD_PORT_2}`;
      await Promise.all([waitAnswers(`${one}/healthz`), waitAnswers(`${two}/healthz`)]);
      const running = (await compose(scale, 'ps', '--services', '--filter', 'status=running')).split('\n').sort();
      expect(running).toEqual(['postgres', 'redis', 'switchyard', 'switchyard-2']);

      // At most 3 requests a minute with this token, wherever they land.
      const upstream = `http://${await hostAddress(await compose(scale, 'ps', '-q', 'switchyard-2'))}:${fakePort}`;
      // Replica 1's setup code, from its log; replica 2 prints the same one (they share /data's session secret).
      const code = await setupCodeIn(await compose(scale, 'ps', '-q', 'switchyard'));
      expect(await setupCodeIn(await compose(scale, 'ps', '-q', 'switchyard-2'))).toBe(code);
      const { admin, key } = await firstDay(
        one,
        upstream,
        { rate_limit_enabled: true, rate_limit_period: 60, rate_limit_count: 3, rate_limit_success: 0 },
        code,
      );

      // Logged in on replica 1, the same cookie is a session on replica 2.
      const self = async (base: string, session: Session) =>
        (await api(base, 'GET', '/api/user/self', undefined, session)).data as { username: string };
      expect((await self(two, admin)).username).toBe(ROOT.username);
      // And a log-out on replica 2 ends it on replica 1.
      const other = await signIn(two);
      await api(two, 'GET', '/api/user/logout', undefined, other);
      const after = await fetch(`${one}/api/user/self`, {
        headers: { cookie: other.cookie, 'new-api-user': String(other.id) },
      });
      expect(after.status).toBe(401);

      for (const base of [one, two, one]) expect((await chat(base, key, 'counted')).length).toBeGreaterThan(0);
      // The fourth is refused on replica 2 although it has served one: the count lives in Redis.
      await expect(chat(two, key, 'one too many')).rejects.toMatchObject({ status: 429 });
      await expect(chat(one, key, 'one too many')).rejects.toMatchObject({ status: 429 });
    },
    15 * MINUTES,
  );
});
