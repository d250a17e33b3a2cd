import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Page folders are named after their routes (CONTRIBUTING), so a newcomer finds /admin/coupons in
 * client/pages/admin-coupons/. The rule: drop the parameters (`:id`) and a leading `/app`, join the
 * rest with '-' (`/admin/coupons` -> admin-coupons, `/app/logs/drawing` -> logs-drawing,
 * `/app/tokens` -> tokens, `/pricing` -> pricing); `/` is home and the catch-all `*` is not-found.
 * A folder that serves several routes (a sub-page, an alias) is named after the first of them in
 * client/routes.tsx.
 */
const clientDir = path.resolve(import.meta.dirname, '../../client');
const routesSource = readFileSync(path.join(clientDir, 'routes.tsx'), 'utf8');

function folderForRoute(routePath: string): string {
  if (routePath === '*') return 'not-found';
  const segments = routePath.split('/').filter((s) => s !== '' && !s.startsWith(':'));
  if (segments.length === 0) return 'home';
  return (segments[0] === 'app' ? segments.slice(1) : segments).join('-');
}

/** [path, folder] of every route in the table, in order; pages loaded outside it serve the catch-all. */
function routesWithFolders(): [string, string][] {
  const routes = [...routesSource.matchAll(/\{\s*path:\s*'([^']+)'[^{}]*?import\('\.\/pages\/([^/']+)\//g)].map(
    (m): [string, string] => [m[1], m[2]],
  );
  const allPageImports = [...routesSource.matchAll(/import\('\.\/pages\/([^/']+)\//g)].map((m) => m[1]);
  const outsideTable = allPageImports.slice(routes.length).map((folder): [string, string] => ['*', folder]);
  return [...routes, ...outsideTable];
}

describe('page folders', () => {
  const routes = routesWithFolders();

  it('reads the route table', () => {
    expect(routes.length).toBeGreaterThan(20);
    expect(routes).toContainEqual(['/admin/coupons', 'admin-coupons']);
    expect(routes).toContainEqual(['*', 'not-found']);
  });

  it('are named after the first route each serves', () => {
    const firstRoute = new Map<string, string>();
    for (const [routePath, folder] of routes) if (!firstRoute.has(folder)) firstRoute.set(folder, routePath);
    const misnamed = [...firstRoute]
      .filter(([folder, routePath]) => folderForRoute(routePath) !== folder)
      .map(
        ([folder, routePath]) => `client/pages/${folder}/ serves ${routePath}: name it ${folderForRoute(routePath)}`,
      );
    expect(misnamed).toEqual([]);
  });

  it('each serve a route (code of no route of its own belongs to its page, components or lib)', () => {
    const served = new Set(routes.map(([, folder]) => folder));
    const folders = readdirSync(path.join(clientDir, 'pages'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((f) => !served.has(f))).toEqual([]);
  });

  it('follow the rule for the shapes of path the console has', () => {
    expect(folderForRoute('/')).toBe('home');
    expect(folderForRoute('/admin/coupons')).toBe('admin-coupons');
    expect(folderForRoute('/app/logs/api-usage')).toBe('logs-api-usage');
    expect(folderForRoute('/app/inbox/:id?')).toBe('inbox');
    expect(folderForRoute('/oauth/:provider')).toBe('oauth');
    expect(folderForRoute('/chat/:id?')).toBe('chat');
  });
});
