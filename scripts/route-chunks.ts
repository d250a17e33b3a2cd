import type { BuiltChunk } from './bundle-budget.ts';

/*
 * The route -> chunk map the server uses to preload an opened page's own code with the HTML (issue 45): without
 * it the browser learns of the page's chunk only once the entry has run, one more wait on every cold start.
 * Written at build time as route-chunks.json beside index.html; read by server/plugins/console-html.ts.
 */

export interface RouteChunks {
  /** URL pattern as in client/routes.tsx ('/chat/:id?') -> files to preload ('/assets/…'), beyond the entry's. */
  routes: { path: string; scripts: string[]; styles: string[] }[];
}

/** Each route's path and page module (`pages/tokens/TokensPage.tsx`) as client/routes.tsx lists them. */
export function routesOf(routesSource: string): { path: string; page: string }[] {
  const found: { path: string; page: string }[] = [];
  const entry = /path:\s*'([^']+)'[^{}]*?import\('\.\/(pages\/[^']+)'\)/g;
  for (const m of routesSource.matchAll(entry)) found.push({ path: m[1], page: m[2] });
  return found;
}

const posix = (p: string) => p.replaceAll('\\', '/');

export function routeChunks(
  chunks: (BuiltChunk & { css: string[] })[],
  routes: { path: string; page: string }[],
  base = '/',
): RouteChunks {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const closure = (start: BuiltChunk[]) => {
    const seen = new Set<string>();
    const stack = [...start];
    while (stack.length) {
      const c = stack.pop()!;
      if (seen.has(c.fileName)) continue;
      seen.add(c.fileName);
      for (const name of c.imports) if (byName.has(name)) stack.push(byName.get(name)!);
    }
    return seen;
  };
  // index.html already preloads the entry and everything it imports.
  const initial = closure(chunks.filter((c) => c.isEntry));
  return {
    routes: routes.flatMap(({ path, page }) => {
      const chunk = chunks.find((c) => c.moduleIds.some((id) => posix(id).endsWith(`/client/${page}`)));
      if (!chunk) return [];
      const files = [...closure([chunk])].filter((f) => !initial.has(f));
      return [
        {
          path,
          scripts: files.map((f) => base + f),
          styles: files.flatMap((f) => byName.get(f)!.css).map((f) => base + f),
        },
      ];
    }),
  };
}
