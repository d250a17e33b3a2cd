import { spawn } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { createTestApp } from '../../test/app.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../../test/relay-fixtures.ts';
import { startNode } from './procs.ts';

/*
 * `node --import tsx scripts/bench/profile-allocations.ts`: where the relay allocates.
 * The gateway runs in this process (so V8's sampling heap profiler can watch it, with
 * the objects GC already collected included), the fake upstream and the load client
 * (the bench's closed loop, 32 at a time) in their own processes. Prints the bytes
 * allocated per function and per nearest server frame. With PROMOTED=1 only what
 * outlived a young-generation GC (promoted to the old generation, the garbage that
 * grows the heap under load) is counted.
 */

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

const fake = await startNode('scripts/fake-upstream/main.ts', { args: ['0'] });
const t = await createTestApp({ logLevel: 'silent' });
await setOptions(t.deps, {
  ModelRatio: JSON.stringify({ 'bench-model': 1 }),
  ModelRequestRateLimitEnabled: 'true',
  ModelRequestRateLimitCount: '100000000',
  ModelRequestRateLimitSuccessCount: '100000000',
});
const user = await insertUser(t.deps, { quota: 1e15 });
await insertChannel(t.deps, { baseUrl: fake.url, models: ['bench-model'] });
const token = await insertToken(t.deps, user.id, { remainQuota: 1e15 });
await t.app.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;

const load = (ms: number) =>
  new Promise<string>((resolve) => {
    const script = `
      const { throughput, agent } = await import('./scripts/bench/http-load.ts');
      const body = JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'Hello, bench!' }] });
      const r = await throughput({ base: '${url}', key: '${token.key}' }, body, 32, ${ms});
      console.log(Math.round(r.rps));
      await agent.close();`;
    const c = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.on('exit', () => resolve(out.trim()));
  });

await load(2000); // warm-up
const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 1024,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: process.env.PROMOTED !== '1',
} as never);
const rps = Number(await load(4000));
const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: ProfileNode } };
session.disconnect();

const short = (u: string) => u.replace(/.*node_modules\//, 'nm:').replace(/.*\/(server|scripts|test)\//, '$1/');
const bySelf = new Map<string, number>();
const byServerFrame = new Map<string, number>();
let total = 0;
const walk = (n: ProfileNode, stack: ProfileNode[]) => {
  const path = [...stack, n];
  total += n.selfSize;
  const cf = n.callFrame;
  const self = `${cf.functionName || '(anonymous)'} ${short(cf.url)}:${cf.lineNumber + 1}`;
  bySelf.set(self, (bySelf.get(self) ?? 0) + n.selfSize);
  const ours = path.findLast((x) => /\/server\//.test(x.callFrame.url));
  const key = ours
    ? `${ours.callFrame.functionName || '(anonymous)'} ${short(ours.callFrame.url)}`
    : '(Node, Fastify, undici)';
  byServerFrame.set(key, (byServerFrame.get(key) ?? 0) + n.selfSize);
  for (const c of n.children) walk(c, path);
};
walk(profile.head, []);
const requests = (rps * 4000) / 1000;
const top = (m: Map<string, number>, k: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([name, bytes]) => `${(bytes / requests / 1024).toFixed(1).padStart(7)} KB/request  ${name}`)
    .join('\n');
const what = process.env.PROMOTED === '1' ? 'outliving a young-generation GC' : 'allocated';
console.log(`${rps} requests/s; ${(total / requests / 1024).toFixed(1)} KB ${what} per request`);
console.log(top(bySelf, 25));
console.log('\nby nearest server frame:');
console.log(top(byServerFrame, 25));
await t.close();
await fake.stop();
