/*
 * Conformance of the channel types that have an adapter of their own (issue #30): each type's strict
 * fake (its real wire format), one channel as an operator enters it, and every front door's official
 * SDK asking it for a plain answer, a streamed one and an upstream error. A cell is
 * `type > door > case`; outcomes go to test-artifacts/conformance/channel-types.json, from which
 * docs/conformance.md § Channel types is rendered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../scripts/fake-upstream/server.ts';
import { ChannelStatus, Role } from '../../shared/constants.ts';
import { channelStatus, payer, quotaOf } from '../provider-fixtures.ts';
import { loginAs } from '../users.ts';
import type { Payer } from './harness.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../relay-fixtures.ts';
import { type Asked, doorClient } from './channel-types/door-calls.ts';
import { type ChannelTypeEntry, TYPE_ANSWER, typeLabel } from './channel-types/entry.ts';
import { CHANNEL_TYPE_ENTRIES } from './channel-types/index.ts';
import { describeError, dialectError } from './dialect-errors.ts';
import { DOORS, type DoorId, TYPE_CASES, type TypeCaseId } from './matrix.ts';
import { type TypeCellResult, writeTypeResults } from './results.ts';

const RATIOS = { model: 2, completion: 3 };
const modelOf = (e: ChannelTypeEntry, role: 'plain' | 'error' | 'dead') => `ct-${e.type}-${role}`;

let h: RelayHarness;
let admin: Record<string, string>;
const fakes = new Map<number, FakeUpstream>();
const channelIds = new Map<number, number>();
const results: TypeCellResult[] = [];

beforeAll(async () => {
  h = await startRelayHarness();
  admin = (await loginAs(h.t, Role.Admin)).headers;
  const models = CHANNEL_TYPE_ENTRIES.flatMap((e) => [modelOf(e, 'plain'), modelOf(e, 'error'), modelOf(e, 'dead')]);
  await setOptions(h.deps, {
    AutomaticDisableChannelEnabled: 'true',
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, RATIOS.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, RATIOS.completion]))),
  });
  for (const e of CHANNEL_TYPE_ENTRIES) {
    const fake = await e.start();
    fakes.set(e.type, fake);
    const c = e.channel(fake.url);
    const id = await insertChannel(h.deps, {
      name: `type-${e.type}`,
      type: e.type,
      key: c.key,
      other: c.other,
      setting: c.setting,
      baseUrl: c.baseUrl ?? fake.url,
      models: [modelOf(e, 'plain'), modelOf(e, 'error')],
      modelMapping: { [modelOf(e, 'plain')]: e.models.plain, [modelOf(e, 'error')]: e.models.error },
      // The error cells must not take the channel out of service for the cells after them.
      autoBan: false,
    });
    channelIds.set(e.type, id);
  }
});

afterAll(async () => {
  writeTypeResults({ finishedAt: new Date().toISOString(), cells: results });
  await h?.close();
  await Promise.all([...fakes.values()].map((f) => f.close()));
});

type Case = (e: ChannelTypeEntry, door: DoorId) => Promise<void>;

const origin = () => h.baseURL.replace(/\/v1$/, '');

/**
 * The SDK read the provider's usage, the log row holds it and the user paid for it; a provider that
 * reports none is counted by the gateway, and the SDK, the row and the charge must still agree.
 */
async function expectBilled(e: ChannelTypeEntry, p: Payer, seen: Asked['usage']) {
  if (e.usage) expect(seen, 'usage as the SDK reads it').toEqual(e.usage);
  const usage = e.usage ?? seen;
  expect(usage?.prompt, 'prompt tokens').toBeGreaterThan(0);
  expect(usage?.completion, 'completion tokens').toBeGreaterThan(0);
  const logs = await p.logs();
  expect(logs.map((l) => [Number(l.prompt_tokens), Number(l.completion_tokens)])).toEqual([
    [usage!.prompt, usage!.completion],
  ]);
  expect(await p.charges()).toEqual([quotaOf(usage!, RATIOS)]);
}

/** The fake received generation calls during `run` (a token exchange or a poll alone does not count). */
async function generating<T>(e: ChannelTypeEntry, run: () => Promise<T>): Promise<T> {
  const fake = fakes.get(e.type)!;
  const from = fake.requests.length;
  const out = await run();
  expect(fake.requests.slice(from).filter(e.isGeneration).length, 'generation calls the upstream got').toBeGreaterThan(
    0,
  );
  return out;
}

const CASES: Record<TypeCaseId, Case> = {
  async text(e, door) {
    const p = await payer(h);
    const asked = await generating(e, () => doorClient(door, origin(), p.key).text(modelOf(e, 'plain')));
    expect(asked.text).toBe(TYPE_ANSWER);
    await expectBilled(e, p, asked.usage);
  },
  async stream(e, door) {
    const p = await payer(h);
    const asked = await generating(e, () => doorClient(door, origin(), p.key).stream(modelOf(e, 'plain')));
    expect(asked.text).toBe(TYPE_ANSWER);
    expect(asked.pieces, 'text pieces streamed').toBeGreaterThan(e.streams === false ? 0 : 1);
    await expectBilled(e, p, asked.usage);
  },
  async error(e, door) {
    const p = await payer(h);
    let caught: unknown;
    await generating(e, async () => {
      try {
        await doorClient(door, origin(), p.key).text(modelOf(e, 'error'));
      } catch (err) {
        caught = err;
      }
    });
    expect(caught, 'the request failed').toBeDefined();
    const d = dialectError(door, caught);
    expect(d, `an error in the ${door} dialect (got ${String(caught)})`).not.toBeNull();
    expect(d!.status).toBe(e.error.status);
    expect(d!.message).toContain(e.error.message);
    expect(await p.charges()).toEqual([]);
  },
};

/** The admin's "test channel" (REST, as the console calls it) passes on the type's channel. */
async function expectChannelTestPasses(e: ChannelTypeEntry) {
  const res = await h.t.app.inject({
    method: 'GET',
    url: `/api/channel/test/${channelIds.get(e.type)}`,
    headers: admin,
  });
  expect(res.json()).toMatchObject({ success: true, message: '' });
}

/** A channel holding a credential the provider refuses as dead is taken out of service by the first call. */
async function expectDeadKeyDisables(e: ChannelTypeEntry) {
  const fake = fakes.get(e.type)!;
  const c = e.channel(fake.url);
  const id = await insertChannel(h.deps, {
    name: `type-${e.type}-dead`,
    type: e.type,
    key: e.deadKey!,
    other: c.other,
    setting: c.setting,
    baseUrl: c.baseUrl ?? fake.url,
    models: [modelOf(e, 'dead')],
    modelMapping: { [modelOf(e, 'dead')]: e.models.plain },
  });
  const p = await payer(h);
  await expect(doorClient('openai-chat', origin(), p.key).text(modelOf(e, 'dead'))).rejects.toThrow();
  expect(await channelStatus(h, id), 'the channel status after the refused key').toBe(ChannelStatus.AutoDisabled);
  expect(await p.charges()).toEqual([]);
}

if (CHANNEL_TYPE_ENTRIES.length === 0) it.todo('no channel type registered yet');
for (const e of CHANNEL_TYPE_ENTRIES)
  describe(typeLabel(e.type), () => {
    it("the admin's channel test passes", () => expectChannelTestPasses(e));
    if (e.deadKey) it('a dead key takes the channel out of service', () => expectDeadKeyDisables(e));
    for (const door of DOORS)
      for (const c of TYPE_CASES)
        it(`${door.label} › ${c.label}`, async () => {
          try {
            await CASES[c.id](e, door.id);
            results.push({ type: e.type, door: door.id, case: c.id, outcome: 'pass' });
          } catch (err) {
            results.push({
              type: e.type,
              door: door.id,
              case: c.id,
              outcome: 'fail',
              error: describeError(door.id, err),
            });
            throw err;
          }
        });
  });
