/*
 * One conformance file per front door: a real gateway (startRelayHarness) on loopback, the four strict
 * fake upstreams started once, one channel each, and one `it()` per upstream x case named
 * `door > upstream > case`. Each cell's outcome (pass, deliberate refusal, fail with what the user
 * saw) is collected and written to test-artifacts/conformance/<door>.json in afterAll, from which
 * scripts/gen-conformance-docs.ts renders docs/conformance.md and prints the matrix in CI.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { FakeUpstream, RecordedRequest } from '../../scripts/fake-upstream/server.ts';
import { payer } from '../provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../relay-fixtures.ts';
import { refusalFor } from './deliberate-refusals.ts';
import { describeError, dialectError } from './dialect-errors.ts';
import { appliesTo, type CaseId, casesFor, type DoorId, doorLabel, UPSTREAMS, type UpstreamId } from './matrix.ts';
import { type CellResult, writeDoorResults } from './results.ts';
import { clientModel, generationRequests, type ModelRole, modelMapping, startUpstream } from './upstreams.ts';

/** Ratio-mode prices of every model the suite asks for (quotaOf's `r`), cache reads and writes as Anthropic bills them. */
export const RATIOS = { model: 2, completion: 3, cache: 0.1, creation: 1.25 };

export interface Gateway {
  h: RelayHarness;
  /** `http://127.0.0.1:<port>` (the Anthropic and Gemini SDKs add their own path). */
  origin: string;
  fakes: Record<UpstreamId, FakeUpstream>;
}

/** Starts the gateway, the four strict upstreams and their channels, all priced. */
export async function startGateway(): Promise<Gateway> {
  const h = await startRelayHarness();
  const fakes = Object.fromEntries(
    await Promise.all(UPSTREAMS.map(async (u) => [u.id, await startUpstream(u.id)] as const)),
  ) as Record<UpstreamId, FakeUpstream>;
  const models = UPSTREAMS.flatMap((u) => Object.keys(modelMapping(u.id)));
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, RATIOS.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, RATIOS.completion]))),
    CacheRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, RATIOS.cache]))),
    CacheCreationRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, RATIOS.creation]))),
  });
  for (const u of UPSTREAMS) {
    const mapping = modelMapping(u.id);
    await insertChannel(h.deps, {
      name: `conformance-${u.id}`,
      type: u.channelType,
      baseUrl: fakes[u.id].url,
      models: Object.keys(mapping),
      modelMapping: mapping,
      // A refused conversion must not disable the channel for the cells after it.
      autoBan: false,
    });
  }
  return { h, origin: h.baseURL.replace(/\/v1$/, ''), fakes };
}

export async function stopGateway(g: Gateway | undefined) {
  if (!g) return;
  await g.h.close();
  await Promise.all(Object.values(g.fakes).map((f) => f.close()));
}

export type Payer = Awaited<ReturnType<typeof payer>>;

/** What a case gets: its upstream, a fresh paying user, and what the upstream received during the cell. */
export interface Cell {
  door: DoorId;
  upstream: UpstreamId;
  g: Gateway;
  fake: FakeUpstream;
  payer: Payer;
  /** The user's API key (`sk-...`). */
  key: string;
  model(role?: ModelRole): string;
  /** The generation requests the upstream received during this cell, oldest first. */
  sent(): RecordedRequest[];
  /** The last of them (fails the cell when there is none). */
  last(): RecordedRequest;
  /** Every request the upstream received during this cell (count_tokens included). */
  all(): RecordedRequest[];
}

export type CaseFn = (c: Cell) => Promise<void>;
export type DoorCases = Partial<Record<CaseId, CaseFn>>;

async function openCell(door: DoorId, upstream: UpstreamId, g: Gateway): Promise<Cell> {
  const fake = g.fakes[upstream];
  const from = fake.requests.length;
  const p = await payer(g.h);
  const all = () => fake.requests.slice(from);
  const sent = () => generationRequests(upstream, all());
  return {
    door,
    upstream,
    g,
    fake,
    payer: p,
    key: p.key,
    model: (role = 'plain') => clientModel(upstream, role),
    sent,
    all,
    last() {
      const r = sent().at(-1);
      if (!r) throw new Error('the upstream received no request');
      return r;
    },
  };
}

/**
 * Registers the door's cells: `describe(door) > describe(upstream) > it(case)`, for the upstreams
 * each case applies to. A cell whose case throws is `refused` when deliberate-refusals.ts lists it
 * and the SDK got that 400 in its own dialect, else `fail` (the `it()` fails with the error).
 */
export function conformanceSuite(door: DoorId, cases: DoorCases) {
  const expected = casesFor(door).map((c) => c.id as CaseId);
  const given = Object.keys(cases) as CaseId[];
  const missing = expected.filter((c) => !cases[c]);
  const extra = given.filter((c) => !expected.includes(c));
  if (missing.length || extra.length)
    throw new Error(
      `conformance ${door}: cases missing [${missing.join(', ')}], not in the matrix [${extra.join(', ')}]`,
    );

  let g: Gateway | undefined;
  const results: CellResult[] = [];
  beforeAll(async () => {
    g = await startGateway();
  });
  afterAll(async () => {
    writeDoorResults({ door, finishedAt: new Date().toISOString(), cells: results });
    await stopGateway(g);
  });

  describe(doorLabel(door), () => {
    for (const u of UPSTREAMS)
      describe(u.label, () => {
        for (const c of casesFor(door).filter((x) => appliesTo(x, u.id)))
          it(c.label, async () => {
            const cell = await openCell(door, u.id, g!);
            try {
              await cases[c.id as CaseId]!(cell);
              results.push({ upstream: u.id, case: c.id, outcome: 'pass' });
            } catch (err) {
              const refusal = refusalFor(door, u.id, c.id);
              const seen = dialectError(door, err);
              if (refusal && seen?.status === 400 && seen.message.includes(refusal.messageIncludes)) {
                results.push({ upstream: u.id, case: c.id, outcome: 'refused', reason: refusal.reason });
                return;
              }
              results.push({ upstream: u.id, case: c.id, outcome: 'fail', error: describeError(door, err) });
              throw err;
            }
          });
      });
  });
}
