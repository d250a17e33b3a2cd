import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressFile } from '../../scripts/console-build.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';

/*
 * Issue 45, "the first screen is slow": the console's hashed files are sent compressed (the .br or .gz the build
 * wrote beside them) and cached for a year, the page itself is never cached, and the HTML of a console URL
 * preloads that page's own chunks and the catalog (route-chunks.json, written by the build), so the browser
 * fetches them with the entry instead of after it.
 */
const script = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `channel ${i}`))};\n`;

describe("the console's files", () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = path.join(process.cwd(), 'node_modules', '.cache', `console-files-test-${process.pid}`);
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><title>Switchyard</title>' +
        '<script type="module" crossorigin src="/assets/index-abc.js"></script></head>' +
        '<body><div id="root"></div></body></html>',
    );
    for (const f of ['index-abc.js', 'ChannelsPage-def.js', 'zh-123.js']) {
      writeFileSync(path.join(dist, 'assets', f), script);
      compressFile(path.join(dist, 'assets', f));
    }
    writeFileSync(path.join(dist, 'assets', 'tiny-1.js'), 'export {};\n');
    compressFile(path.join(dist, 'assets', 'tiny-1.js'));
    writeFileSync(
      path.join(dist, 'route-chunks.json'),
      JSON.stringify({
        routes: [
          {
            path: '/admin/channels',
            scripts: ['/assets/ChannelsPage-def.js'],
            styles: ['/assets/ChannelsPage-def.css'],
          },
          { path: '/chat/:id?', scripts: ['/assets/ChatPage-0.js'], styles: [] },
        ],
        catalog: '/assets/zh-123.js',
      }),
    );
    t = await createTestApp({ clientDist: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends a hashed file as the build compressed it, cached for a year', async () => {
    const br = await t.app.inject({ url: '/assets/index-abc.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await t.app.inject({ url: '/assets/index-abc.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    // A client that asks for no compression, and a file too small to be worth it, get the plain bytes.
    const plain = await t.app.inject({ url: '/assets/index-abc.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    const tiny = await t.app.inject({ url: '/assets/tiny-1.js', headers: { 'accept-encoding': 'br' } });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('export {};\n');
  });

  it("preloads the opened page's chunks and the catalog with the page, which is never cached", async () => {
    const channels = await t.app.inject('/admin/channels?edit=3');
    expect(channels.statusCode).toBe(200);
    expect(channels.headers['cache-control']).toBe('no-cache');
    expect(channels.body).toContain('<link rel="modulepreload" crossorigin href="/assets/ChannelsPage-def.js">');
    expect(channels.body).toContain('<link rel="preload" as="style" crossorigin href="/assets/ChannelsPage-def.css">');
    expect(channels.body).toContain('<link rel="modulepreload" crossorigin href="/assets/zh-123.js">');

    // A route with an optional parameter matches with and without it; another page preloads only its own.
    for (const url of ['/chat', '/chat/42']) {
      const chat = (await t.app.inject(url)).body;
      expect(chat).toContain('href="/assets/ChatPage-0.js"');
      expect(chat).not.toContain('ChannelsPage-def.js');
    }
    const unknown = (await t.app.inject('/no/such/page')).body;
    expect(unknown).not.toContain('ChannelsPage-def.js');
    expect(unknown).toContain('href="/assets/zh-123.js"');
  });
});
