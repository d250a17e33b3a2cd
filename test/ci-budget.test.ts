import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Budget, measured, overBudget, type Timings } from './ci-budget.ts';
import { needs } from './skips/needs.ts';

/*
 * CI's own time, checked inside the run it measures: .ci/run writes each finished phase's seconds, and when the
 * phase now running started, to the file named by CI_TIMINGS; this file is the `budget` project, ordered after every
 * other group (sequence.groupOrder), so the running test phase is counted up to its end. Growth past the budget by
 * more than its tolerance fails here, in the run where it happened. See docs/CONTRIBUTING.md (the CI budget).
 */
const budget = JSON.parse(readFileSync(new URL('./ci-budget.json', import.meta.url), 'utf8')) as Budget;
const timingsFile = process.env.CI_TIMINGS ?? '';
const ran = timingsFile !== '' && existsSync(timingsFile);
const need = needs('a run of .ci/run (CI_TIMINGS=<the phase times it writes>)', ran);

describe('the budget rule', () => {
  const run = (seconds: Record<string, number>) =>
    overBudget(
      budget,
      Object.entries(seconds).map(([name, s]) => ({ name, seconds: s })),
    );

  it('passes a phase up to 20% over its budget and fails it past that, naming it', () => {
    const lint = budget.phases.lint!;
    expect(run({ lint: Math.floor(lint * 1.19) })).toEqual([]);
    expect(run({ lint: Math.ceil(lint * 1.25) })).toEqual([expect.stringContaining('phase "lint" took')]);
  });

  it('fails a run whose phases each fit but together pass the total', () => {
    const each = Object.fromEntries(
      Object.entries(budget.phases).flatMap(([name, s]) => (s === null ? [] : [[name, Math.floor(s * 1.19)]])),
    );
    const sum = Object.values(each).reduce((a, b) => a + b, 0);
    expect(sum > budget.total * 1.2).toBe(true);
    expect(run(each)).toEqual([expect.stringContaining('the run so far took')]);
  });

  it('fails a phase .ci/run measures that has no budget, and leaves machine set-up out', () => {
    expect(run({ 'video tests': 1 })).toEqual([expect.stringContaining('"video tests" has no budget')]);
    expect(run({ 'system packages': 100_000 })).toEqual([]);
  });

  it('counts the phase still running up to now', () => {
    expect(
      measured({ phases: [{ name: 'lint', seconds: 5 }], current: { name: 'sqlite tests', startedAt: 100 } }, 160),
    ).toEqual([
      { name: 'lint', seconds: 5 },
      { name: 'sqlite tests', seconds: 60 },
    ]);
  });
});

describe.skipIf(!need.ok)(need.name('this CI run'), () => {
  it('stays within test/ci-budget.json (+20%)', () => {
    const timings = JSON.parse(readFileSync(timingsFile, 'utf8')) as Timings;
    const phases = measured(timings, Math.floor(Date.now() / 1000));
    console.log(phases.map((p) => `${p.name}: ${p.seconds} s`).join(', '));
    expect(overBudget(budget, phases)).toEqual([]);
  });
});
