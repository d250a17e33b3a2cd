/*
 * The real agent clients through the gateway (issue #29): Claude Code, Codex, Gemini CLI, Qwen Code and
 * OpenCode, installed pinned (test/agents/clients/), each run headless with its default configuration
 * against every upstream dialect the gateway converts to (scripted agent fakes that check every request as
 * the real API would: scripts/fake-upstream/agent/). One `it()` per cell, `client > upstream`, two cells at
 * a time; the outcomes (with client versions) go to test-artifacts/agents/matrix.json, from which
 * `npm run docs:conformance` renders docs/conformance.md's "Real agent clients" section.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCell, STEP_TIMEOUT_MS, STEPS } from './cell.ts';
import { CLIENTS, clientVersion } from './clients.ts';
import { type AgentGateway, startAgentGateway, stopAgentGateway } from './gateway.ts';
import { AGENT_UPSTREAMS, type AgentCellResult, writeAgentResults } from './matrix.ts';

let g: AgentGateway | undefined;
const results: AgentCellResult[] = [];

beforeAll(async () => {
  g = await startAgentGateway();
});

afterAll(async () => {
  writeAgentResults({
    finishedAt: new Date().toISOString(),
    versions: Object.fromEntries(CLIENTS.map((c) => [c.id, clientVersion(c.id)])) as Record<
      (typeof CLIENTS)[number]['id'],
      string
    >,
    cells: results,
  });
  await stopAgentGateway(g);
});

describe.concurrent('real agent clients', () => {
  for (const c of CLIENTS)
    describe(`${c.label} ${clientVersion(c.id)}`, () => {
      for (const u of AGENT_UPSTREAMS)
        it(`${c.id} > ${u.id}`, { timeout: STEPS * STEP_TIMEOUT_MS + 30_000 }, async () => {
          const r = await runCell(g!, c.id, u.id);
          results.push(r);
          expect(r.outcome, r.error).toBe('pass');
        });
    });
});
