import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { MAX_IMAGE_BYTES } from '../shared/images.ts';
import { allowPrivateImageHosts } from '../shared/safe-fetch.ts';
import { payer, startAnthropic } from '../../../../test/provider-fixtures.ts';

let h: RelayHarness;
let ant: FakeUpstream;
let images: Server;
let imageBase: string;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

beforeAll(async () => {
  h = await startRelayHarness();
  ant = await startAnthropic();
  images = createServer((req, res) => {
    if (req.url === '/small.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    } else if (req.url === '/huge.png') {
      // No content-length: the cap must hold while reading, not only on the declared size.
      res.writeHead(200, { 'content-type': 'image/png', 'transfer-encoding': 'chunked' });
      const chunk = Buffer.alloc(1024 * 1024);
      for (let i = 0; i <= MAX_IMAGE_BYTES / chunk.length; i++) res.write(chunk);
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => images.listen(0, '127.0.0.1', r));
  // Only the tests below the first one may fetch from this loopback image server.
  imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'claude-img': 1 }) });
  await insertChannel(h.deps, { type: 14, baseUrl: ant.url, models: ['claude-img'] });
});
afterAll(async () => {
  allowPrivateImageHosts(false);
  await h.close();
  await ant.close();
  images.closeAllConnections();
  await new Promise((r) => images.close(r));
});

const ask = (key: string, url: string) =>
  h.client(key).chat.completions.create({
    model: 'claude-img',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'image_url', image_url: { url } },
        ],
      },
    ],
  });

describe('remote image URLs for providers that take inline images only', () => {
  it('are refused from internal addresses (loopback, private ranges) before anything is fetched', async () => {
    const p = await payer(h);
    const sent = ant.requests.length;
    for (const url of [
      `${imageBase}/small.png`,
      'http://localhost:1/x.png',
      'http://10.1.2.3/x.png',
      'http://[::1]:1/x.png',
    ])
      await expect(ask(p.key, url)).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining('internal addresses'),
      });
    expect(ant.requests.length).toBe(sent);
    expect(await p.charges()).toEqual([]);
  });

  it('are fetched and sent as base64 blocks', async () => {
    allowPrivateImageHosts(true);
    const p = await payer(h);
    await ask(p.key, `${imageBase}/small.png`);
    const blocks = (ant.requests.at(-1)!.body.messages as { content: { type: string; source?: object }[] }[])[0]
      .content;
    // toMatchObject: the channel may also mark the block as a cache breakpoint (shared/channel-cache.ts).
    expect(blocks[1]).toMatchObject({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') },
    });
    expect(await p.charges()).toHaveLength(1);
  });

  it('over the size cap, or unreachable, are refused with a 400 and nothing is charged', async () => {
    const p = await payer(h);
    const sent = ant.requests.length;
    await expect(ask(p.key, `${imageBase}/huge.png`)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('MB'),
    });
    await expect(ask(p.key, `${imageBase}/missing.png`)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('404'),
    });
    expect(ant.requests.length).toBe(sent);
    expect(await p.charges()).toEqual([]);
  });
});
