import type { Candidate } from './routing-cache.ts';

/**
 * Picks the channel for attempt `attempt` (0-based) among a (group, model)'s
 * candidates, per relay.md §3: distinct priorities high to low, attempt i uses the
 * i-th highest (past the end, the lowest); inside a priority, weighted random with
 * weight + 10 so weight 0 can still win. Channels that already failed for this
 * request are never picked again; when a priority level has none left, the next
 * lower level (then higher) is used instead of giving up.
 */
export function selectChannel(
  candidates: readonly Candidate[],
  attempt: number,
  failed: ReadonlySet<number>,
  random: () => number = Math.random,
): Candidate | undefined {
  const usable = failed.size === 0 ? candidates : candidates.filter((c) => !failed.has(c.channel.id));
  if (usable.length === 0) return undefined;
  if (usable.length === 1) return usable[0];
  const priorities = [...new Set(candidates.map((c) => c.priority))].sort((a, b) => b - a);
  const start = Math.min(attempt, priorities.length - 1);
  const order = [...priorities.slice(start), ...priorities.slice(0, start).reverse()];
  for (const p of order) {
    const level = usable.filter((c) => c.priority === p);
    if (level.length > 0) return weightedPick(level, random);
  }
  return undefined;
}

function weightedPick(level: readonly Candidate[], random: () => number): Candidate {
  if (level.length === 1) return level[0];
  const total = level.reduce((s, c) => s + c.weight + 10, 0);
  let r = random() * total;
  for (const c of level) {
    r -= c.weight + 10;
    if (r < 0) return c;
  }
  return level[level.length - 1];
}
