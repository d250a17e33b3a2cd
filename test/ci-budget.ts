/**
 * CI's time budget (test/ci-budget.json) against the times .ci/run measured (the file it names in CI_TIMINGS):
 * finished phases with their seconds, and the phase running now (the test suite this check is part of).
 */
export interface Budget {
  tolerance: number;
  /** Expected seconds per phase; null for machine set-up that is not the suite's own time. */
  phases: Record<string, number | null>;
  total: number;
}

export interface Timings {
  phases: { name: string; seconds: number }[];
  current?: { name: string; startedAt: number };
}

/** The phases measured so far, the running one counted up to `now` (unix seconds). */
export function measured(t: Timings, now: number): { name: string; seconds: number }[] {
  const out = [...t.phases];
  if (t.current) out.push({ name: t.current.name, seconds: Math.max(0, now - t.current.startedAt) });
  return out;
}

/** What went over budget by more than the tolerance, in words; empty when the run is within its budget. */
export function overBudget(budget: Budget, phases: { name: string; seconds: number }[]): string[] {
  const limit = (s: number) => Math.round(s * (1 + budget.tolerance));
  const out: string[] = [];
  let total = 0;
  for (const { name, seconds } of phases) {
    if (!(name in budget.phases)) {
      out.push(`phase "${name}" has no budget in test/ci-budget.json (add its expected seconds, or null)`);
      continue;
    }
    const expected = budget.phases[name];
    if (expected === null || expected === undefined) continue;
    total += seconds;
    if (seconds > limit(expected))
      out.push(
        `phase "${name}" took ${seconds} s, budget ${expected} s (+${budget.tolerance * 100}%: ${limit(expected)} s)`,
      );
  }
  if (total > limit(budget.total))
    out.push(
      `the run so far took ${total} s, budget ${budget.total} s (+${budget.tolerance * 100}%: ${limit(budget.total)} s)`,
    );
  return out;
}
