import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import { needs } from './needs.ts';
import SkippedSummaryReporter from './summary-reporter.ts';

/** Just what the reporter reads of Vitest's run: each file's tests, their full names and states. */
function moduleOf(file: string, tests: { name: string; state: 'passed' | 'skipped' }[]): TestModule {
  const cases = tests.map((t) => ({ fullName: t.name, result: () => ({ state: t.state }) }));
  return { relativeModuleId: file, children: { allTests: () => cases.values() } } as unknown as TestModule;
}

function summaryOf(modules: TestModule[]): string {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  new SkippedSummaryReporter().onTestRunEnd(modules);
  return log.mock.calls.map((c) => String(c[0])).join('\n');
}

describe('the end-of-run summary of what was not tested', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('names each skipped suite with what it needs, and counts the other skips per file', () => {
    vi.stubEnv('TEST_SQL_DSN', 'postgres://x@127.0.0.1/db');
    const redis = needs('TEST_REDIS_URL=redis://…', false);
    const out = summaryOf([
      moduleOf('server/cache/redis.test.ts', [
        { name: `${redis.name('Redis shared state')} > publishes`, state: 'skipped' },
        { name: `${redis.name('Redis shared state')} > limits`, state: 'skipped' },
      ]),
      moduleOf('scripts/x.test.ts', [
        { name: 'runs', state: 'passed' },
        { name: 'only on Linux', state: 'skipped' },
      ]),
    ]);
    expect(out).toContain('server/cache/redis.test.ts: 2 tests skipped, needing TEST_REDIS_URL=redis://…');
    expect(out).toContain('scripts/x.test.ts: 1 test skipped (a condition in the file');
    expect(out).not.toContain('SQLite only');
  });

  it('says the suites ran on SQLite only when no PostgreSQL was given, even with nothing skipped', () => {
    vi.stubEnv('TEST_SQL_DSN', '');
    const out = summaryOf([moduleOf('a.test.ts', [{ name: 'runs', state: 'passed' }])]);
    expect(out).toContain('set TEST_SQL_DSN=postgres://… to run them on PostgreSQL');
  });

  it('prints nothing when everything ran', () => {
    vi.stubEnv('TEST_SQL_DSN', 'postgres://x@127.0.0.1/db');
    expect(summaryOf([moduleOf('a.test.ts', [{ name: 'runs', state: 'passed' }])])).toBe('');
  });
});
