import type { Reporter, TestModule } from 'vitest/node';
import { NEEDS_TAG } from './needs.ts';

/**
 * Ends a run with what it did not test and how to test it: each skipped suite that needs a service
 * (`[needs …]` in its name, see needs.ts), other skips counted per file, and whether the suites ran on
 * PostgreSQL. Vitest's own summary only counts skips; a newcomer should not take "passed" for "all ran".
 */
export default class SkippedSummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const needed = new Map<string, { need: string; tests: number }>();
    const other = new Map<string, number>();
    for (const mod of modules) {
      const file = mod.relativeModuleId;
      for (const test of mod.children.allTests()) {
        if (test.result().state !== 'skipped') continue;
        const need = NEEDS_TAG.exec(test.fullName)?.[1];
        if (need) {
          const key = `${file}\0${need}`;
          const entry = needed.get(key) ?? { need, tests: 0 };
          entry.tests++;
          needed.set(key, entry);
        } else other.set(file, (other.get(file) ?? 0) + 1);
      }
    }
    const lines: string[] = [];
    for (const [key, { need, tests }] of needed)
      lines.push(`  ${key.split('\0')[0]}: ${plural(tests, 'test')} skipped, needing ${need}`);
    for (const [file, tests] of other)
      lines.push(
        `  ${file}: ${plural(tests, 'test')} skipped (a condition in the file: a machine feature or a filter)`,
      );
    if (!process.env.TEST_SQL_DSN)
      lines.push('  every suite ran on SQLite only: set TEST_SQL_DSN=postgres://… to run them on PostgreSQL');
    if (!lines.length) return;
    console.log(
      `\nNot tested in this run (.ci/run starts PostgreSQL and Redis and runs them all):\n${lines.join('\n')}\n`,
    );
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
