import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakePng, labelOf } from '../../../../scripts/fake-upstream/images/shared.ts';
import { insertToken, insertUser, type RelayHarness, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import type { AttemptSuccess } from '../../attempts.ts';
import { RelayCancel } from '../../cancel.ts';
import type { RelayCall } from '../../prepare.ts';
import { relayRuntimeOf } from '../../runtime.ts';
import { clientJson, deliverImages } from '../delivery.ts';
import { imagesAnswer, parseImagesAnswer } from '../image-answer.ts';

/*
 * Delivery of a private upstream link (issue 44): a picture that only the channel's key opens (as
 * Jimeng's or a signed bucket's would) reaches the client as a gateway link or as base64, fetched with
 * the adapter's imageFileRequest, and never shows the upstream's address. The upstream adapters'
 * own tests prove it through the SDK; here the delivery step runs alone, on a real gateway (its KV,
 * its files route) and a real upstream file server that wants the key.
 */

let h: RelayHarness;
let files: Server;
let filesUrl: string;
let user: { id: number };
let key: string;

beforeAll(async () => {
  h = await startRelayHarness();
  files = createServer((req, res) => {
    if (req.headers.authorization !== 'Bearer channel-key') return void res.writeHead(403).end('denied');
    res.writeHead(200, { 'content-type': 'image/png' }).end(fakePng(20, 10, 'private'));
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  user = await insertUser(h.deps);
  key = (await insertToken(h.deps, user.id)).key;
});
afterAll(async () => {
  await h?.close();
  files?.closeAllConnections();
  await new Promise<void>((resolve) => files?.close(() => resolve()));
});

const gatewayHost = () => new URL(h.baseURL).host;

/** The parts of a call delivery reads: who pays, where the client called, what it asked. */
const callOf = (responseFormat?: string) =>
  ({
    principal: { user: { id: user.id } },
    req: { protocol: 'http', host: gatewayHost() },
    body: responseFormat ? { model: 'm', response_format: responseFormat } : { model: 'm' },
    abort: new RelayCancel(),
  }) as unknown as RelayCall;

const withKey = {
  ctx: {},
  adapter: {
    imageFileRequest: (_ctx: unknown, url: string) => ({
      url,
      method: 'GET',
      headers: { authorization: 'Bearer channel-key' },
    }),
  },
} as unknown as AttemptSuccess;

const privateAnswer = () =>
  parseImagesAnswer(imagesAnswer([{ url: `${filesUrl}/out/1.png`, private: true, revisedPrompt: 'p' }]));

describe('a private upstream link', () => {
  it('becomes a gateway link (no response_format) that serves the picture, never the upstream address', async () => {
    const out = await deliverImages(relayRuntimeOf(h.deps)!, callOf(), withKey, privateAnswer());
    const json = clientJson(out);
    expect(json).not.toContain(filesUrl);
    expect(json).not.toContain('_private');
    expect(json).not.toContain('_mime');
    const link = (JSON.parse(json) as { data: { url: string; revised_prompt: string }[] }).data[0];
    expect(link.revised_prompt).toBe('p');
    expect(link.url.startsWith(`http://${gatewayHost()}/v1/images/files/`)).toBe(true);
    const res = await fetch(link.url);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(labelOf(Buffer.from(await res.arrayBuffer()))).toBe('private');
    const byKey = await fetch(link.url.split('?')[0], { headers: { authorization: `Bearer ${key}` } });
    expect(byKey.status).toBe(200);
  });

  it('comes as base64 when b64_json is asked', async () => {
    const out = await deliverImages(relayRuntimeOf(h.deps)!, callOf('b64_json'), withKey, privateAnswer());
    const d = (JSON.parse(clientJson(out)) as { data: { b64_json: string; url?: string }[] }).data[0];
    expect(d.url).toBeUndefined();
    expect(labelOf(Buffer.from(d.b64_json, 'base64'))).toBe('private');
  });

  it('that the upstream refuses (no key sent) is a 502, not a broken link', async () => {
    const noKey = { ctx: {}, adapter: {} } as unknown as AttemptSuccess;
    const err = await deliverImages(relayRuntimeOf(h.deps)!, callOf(), noKey, privateAnswer()).catch((e) => e);
    expect(err).toMatchObject({ status: 502, code: 'image_download_failed' });
  });
});
