import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type BuiltChunk, firstRouteSizes, overBudget } from './bundle-budget.ts';
import { routeChunks, routesOf } from './route-chunks.ts';

/*
 * Issue 45: the build fails when a first screen's JavaScript grows past scripts/perf-budget.json. The chunks
 * here stand for a build: random base64 text, which gzip brings down to about three quarters of its length.
 */
const chunk = (fileName: string, kib: number, o: Partial<BuiltChunk & { css: string[] }> = {}) => ({
  fileName,
  code: randomBytes(kib * 1024)
    .toString('base64')
    .slice(0, kib * 1024),
  imports: [],
  isEntry: false,
  moduleIds: [],
  css: [],
  ...o,
});

const build = (pageKiB: number) => [
  chunk('assets/index.js', 10, { isEntry: true, imports: ['assets/react.js'], moduleIds: ['/r/client/main.tsx'] }),
  chunk('assets/react.js', 40),
  chunk('assets/mantine.js', 60),
  chunk('assets/Channels.js', pageKiB, {
    imports: ['assets/react.js', 'assets/mantine.js'],
    moduleIds: ['/r/client/pages/admin-channels/ChannelsPage.tsx'],
    css: ['assets/Channels.css'],
  }),
  chunk('assets/Settings.js', 500, { moduleIds: ['/r/client/pages/admin-settings/SettingsPage.tsx'] }),
  chunk('assets/zh.js', 20, { moduleIds: ['/r/client/locales/zh.ts'] }),
];
const page = 'client/pages/admin-channels/ChannelsPage.tsx';

describe('the first-screen JavaScript budget', () => {
  it('weighs the entry, its imports, the page with its imports and the catalog, and nothing else', () => {
    const [size] = firstRouteSizes(build(30), [page], 'client/locales/zh.ts');
    expect(size.files).toEqual([
      'assets/Channels.js',
      'assets/index.js',
      'assets/mantine.js',
      'assets/react.js',
      'assets/zh.js',
    ]);
    // 160 KiB of code, ~120 KiB gzipped: the 500 KiB settings page is not counted.
    expect(size.gzipBytes / 1024).toBeGreaterThan(110);
    expect(size.gzipBytes / 1024).toBeLessThan(130);
    expect(overBudget([size], 140)).toEqual([]);
  });

  it('fails, naming the page and the budget file, when the page grows past the budget', () => {
    const sizes = firstRouteSizes(build(80), [page], 'client/locales/zh.ts');
    const problems = overBudget(sizes, 140);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /first screen of client\/pages\/admin-channels\/ChannelsPage\.tsx: 1[5-6]\d\.\d KiB of gzipped JavaScript, over the budget of 140 KiB/,
    );
    expect(problems[0]).toContain('scripts/perf-budget.json');
  });

  it('fails loudly when a page the budget names is no longer built', () => {
    expect(() => firstRouteSizes(build(30), ['client/pages/gone/GonePage.tsx'], 'client/locales/zh.ts')).toThrow(
      /no chunk holds client\/pages\/gone\/GonePage\.tsx/,
    );
  });
});

describe('the route -> chunk map', () => {
  it("reads client/routes.tsx's routes, one line or several", () => {
    const source = `
      { path: '/about', guard: 'public', ...lazyPage(() => import('./pages/about/AboutPage.tsx')) },
      {
        path: '/admin/channels',
        guard: 'admin',
        ...lazyPage(() => import('./pages/admin-channels/ChannelsPage.tsx')),
        firstQuery: firstChannelList,
      },
      { path: '/channel/add', to: () => '/admin/channels?add=1' },`;
    expect(routesOf(source)).toEqual([
      { path: '/about', page: 'pages/about/AboutPage.tsx' },
      { path: '/admin/channels', page: 'pages/admin-channels/ChannelsPage.tsx' },
    ]);
  });

  it('lists a page chunk and what it imports beyond what index.html already preloads', () => {
    const map = routeChunks(build(30), [{ path: '/admin/channels', page: 'pages/admin-channels/ChannelsPage.tsx' }]);
    expect(map.routes).toEqual([
      {
        path: '/admin/channels',
        scripts: ['/assets/Channels.js', '/assets/mantine.js'],
        styles: ['/assets/Channels.css'],
      },
    ]);
  });
});
