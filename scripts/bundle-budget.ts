import { gzipSync } from 'node:zlib';

/** What the budget reads of a built chunk (a subset of Rollup's / Rolldown's OutputChunk). */
export interface BuiltChunk {
  fileName: string;
  code: string;
  /** Chunks it imports statically: the browser fetches them before it runs. */
  imports: string[];
  isEntry: boolean;
  /** Absolute paths of the source modules inside it. */
  moduleIds: string[];
}

export interface FirstRouteSize {
  page: string;
  files: string[];
  gzipBytes: number;
}

const posix = (p: string) => p.replaceAll('\\', '/');

/**
 * The JavaScript a cold first screen of each page fetches before it can show anything: the entry and its static
 * imports, the chunk holding the page's module (a source path such as `client/pages/tokens/TokensPage.tsx`) and
 * its static imports, and the chunk holding `catalog` (the default language's messages). Sizes are gzip's.
 */
export function firstRouteSizes(chunks: BuiltChunk[], pages: string[], catalog: string): FirstRouteSize[] {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const holding = (source: string) => {
    const c = chunks.find((ch) => ch.moduleIds.some((id) => posix(id).endsWith(`/${source}`)));
    if (!c) throw new Error(`no chunk holds ${source}: is the budget's page list out of date?`);
    return c;
  };
  const withImports = (start: BuiltChunk[], into = new Set<string>()) => {
    const stack = [...start];
    while (stack.length) {
      const c = stack.pop()!;
      if (into.has(c.fileName)) continue;
      into.add(c.fileName);
      for (const name of c.imports) {
        const next = byName.get(name);
        if (next) stack.push(next);
      }
    }
    return into;
  };
  const entries = chunks.filter((c) => c.isEntry);
  return pages.map((page) => {
    const files = [...withImports([...entries, holding(page), holding(catalog)])].sort();
    const gzipBytes = files.reduce((n, f) => n + gzipSync(byName.get(f)!.code, { level: 9 }).length, 0);
    return { page, files, gzipBytes };
  });
}

/** One line per page over the budget (KiB of gzipped JavaScript), saying by how much and what to do. */
export function overBudget(sizes: FirstRouteSize[], budgetKiB: number): string[] {
  return sizes
    .filter((s) => s.gzipBytes > budgetKiB * 1024)
    .map(
      (s) =>
        `first screen of ${s.page}: ${(s.gzipBytes / 1024).toFixed(1)} KiB of gzipped JavaScript, over the budget of ` +
        `${budgetKiB} KiB (scripts/perf-budget.json). Load the new code lazily, or raise the budget saying why.`,
    );
}
