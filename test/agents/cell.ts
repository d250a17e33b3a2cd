/*
 * One cell of the real-client matrix: a client, an upstream, a fresh user in the upstream's group, a
 * throwaway folder with the task's files, and three invocations of the client through the gateway:
 * 1. the first prompt: two text files and a picture read through the client's tools, with thinking on;
 * 2-3. the same session continued: the fake repeats the code word only when the earlier turns (prompt,
 *    tool results, its answer) are in the prefix.
 * A step passes when the client exits 0 with the expected answer in its output; the cell passes when every
 * step does and the fake saw every tool result (the picture included) come back.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  codeWord,
  firstAnswer,
  firstPrompt,
  makePng,
  newTask,
  notesText,
  secondText,
  stepAnswer,
  stepPrompt,
} from '../../scripts/fake-upstream/agent/task.ts';
import { answerOf, type ClientId, prepareClient, type RunResult } from './clients.ts';
import { type AgentGateway, cellUser, gatewayErrors } from './gateway.ts';
import type { AgentCellResult, AgentUpstreamId, StepResult } from './matrix.ts';

export const STEPS = 3;
/** One invocation's limit: a client stuck retrying counts as failed, not as a hung suite. */
export const STEP_TIMEOUT_MS = 150_000;

const lastLines = (s: string, n = 6) =>
  s
    .split('\n')
    .map((l) => l.trimEnd())
    .filter(Boolean)
    .slice(-n)
    .join(' ⏎ ')
    .slice(-600);

function judge(step: number, r: RunResult, expected: string): StepResult {
  const base = { step, exitCode: r.exitCode, ms: r.ms };
  const problem = r.timedOut
    ? `timed out after ${Math.round(r.ms / 1000)} s`
    : r.exitCode !== 0
      ? `exit code ${r.exitCode}`
      : !r.stdout.includes(expected)
        ? `answer is not "${expected}"`
        : undefined;
  if (!problem) return { ...base, ok: true };
  return {
    ...base,
    ok: false,
    problem: `${problem}; the client said: ${answerOf(r.stdout).slice(-500) || '(nothing)'}; stderr: ${lastLines(r.stderr, 4)}`,
  };
}

export async function runCell(g: AgentGateway, client: ClientId, upstream: AgentUpstreamId): Promise<AgentCellResult> {
  const started = Date.now();
  const root = mkdtempSync(path.join(os.tmpdir(), `agents-${client}-${upstream}-`));
  try {
    const { userId, key } = await cellUser(g, upstream);
    const c = prepareClient(client, { origin: g.origin, key, root });
    const task = newTask();
    writeFileSync(path.join(c.work, 'notes.txt'), notesText(c.work, task));
    writeFileSync(path.join(c.work, 'second.txt'), secondText(c.work, task));
    writeFileSync(path.join(c.work, 'pixel.png'), makePng(task.width, task.height));
    const word = codeWord(task);
    const steps: StepResult[] = [];
    for (let step = 1; step <= STEPS; step++) {
      const r = await c.run(step === 1 ? firstPrompt(c.work) : stepPrompt(step), step > 1, STEP_TIMEOUT_MS);
      steps.push(judge(step, r, step === 1 ? firstAnswer(word) : stepAnswer(step, word)));
      // A session that never started cannot be continued: the later steps would only repeat the failure.
      if (step === 1 && !steps[0].ok) break;
    }
    const turns = g.fakes[upstream].turns.filter((t) => t.task?.includes(c.work));
    const answered = turns.filter((t) => !t.refused && t.move.startsWith('CODE WORD'));
    const seen = answered.length ? { results: answered[0].results, images: answered[0].images } : undefined;
    const sawAll = !!seen && seen.results >= 3 && seen.images >= 1;
    const failed = steps.find((s) => !s.ok);
    const pass = !failed && sawAll;
    const result: AgentCellResult = {
      client,
      upstream,
      outcome: pass ? 'pass' : 'fail',
      ms: Date.now() - started,
      steps,
      seen,
    };
    if (!pass) {
      const refused = turns.filter((t) => t.refused).map((t) => `upstream refused: ${t.refused}`);
      const moves = turns.filter((t) => !t.refused).map((t) => t.move.slice(0, 80));
      const errors = await gatewayErrors(g, userId);
      // The same refusal reaches the fake, the gateway's log and the client: each said once.
      const said = new Set<string>();
      const once = (line: string) => {
        const key = line
          .replace(/^(upstream refused: \d{3} |gateway: [^:]+: )/, '')
          .replace(/\s*\(request id: [^)]*\)/g, '');
        if (said.has(key)) return false;
        said.add(key);
        return true;
      };
      result.error = [
        failed
          ? `step ${failed.step}: ${failed.problem}`
          : `the fake saw ${seen?.results ?? 0} tool results and ${seen?.images ?? 0} images`,
        ...refused,
        ...errors.map((e) => `gateway: ${e}`),
      ]
        .filter(once)
        .concat(moves.length ? [`the fake's moves: ${moves.join(' → ')}`] : [])
        .join(' | ');
    }
    return result;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
