import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType } from '../../../../shared/channel-types.ts';
import { runQuery, upstreamJson } from '../../../domains/channels/probe-http.client.ts';
import { modelsQueryFor } from '../index.ts';
import type { UpstreamRequest } from '../types.ts';

/** 25 models: more than one page of Anthropic's default 20. */
const MODELS = Array.from({ length: 25 }, (_, i) => `claude-model-${String(i).padStart(2, '0')}`);

/**
 * Anthropic's `GET /v1/models` as the real API answers it: the key in `x-api-key` (a bearer token is
 * refused with its 401), `anthropic-version` required, pages of `limit` (default 20, at most 1000)
 * after `after_id`, with `has_more`, `first_id` and `last_id`.
 */
let server: Server;
let base = '';
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, type: string, message: string) =>
      send(status, { type: 'error', error: { type, message } });
    const url = new URL(req.url ?? '', 'http://x');
    if (url.pathname !== '/v1/models') return error(404, 'not_found_error', 'Not found');
    if (req.headers['x-api-key'] !== 'ant-key') return error(401, 'authentication_error', 'invalid x-api-key');
    if (!req.headers['anthropic-version'])
      return error(400, 'invalid_request_error', 'anthropic-version: header is required');
    const limit = Number(url.searchParams.get('limit') ?? 20);
    if (!(limit >= 1 && limit <= 1000)) return error(400, 'invalid_request_error', 'limit: out of range');
    const after = url.searchParams.get('after_id');
    const from = after ? MODELS.indexOf(after) + 1 : 0;
    const page = MODELS.slice(from, from + limit);
    send(200, {
      data: page.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' })),
      has_more: from + limit < MODELS.length,
      first_id: page[0] ?? null,
      last_id: page.at(-1) ?? null,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The probe's way of sending a model-list GET: a non-2xx answer fails the fetch with the upstream's words. */
async function send(req: UpstreamRequest): Promise<unknown> {
  const res = await upstreamJson(req);
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

describe('fetch models on an Anthropic channel (type 14)', () => {
  it("asks with x-api-key and anthropic-version, and gets every model, not only Anthropic's first page", async () => {
    const ids = await runQuery(modelsQueryFor(ChannelType.Anthropic), base, 'ant-key', send);
    expect(ids).toEqual(MODELS);
    const asked = seen.at(-1)!;
    expect(asked.headers.authorization).toBeUndefined();
    expect(asked.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('takes a base URL that already ends in /v1', async () => {
    expect(await runQuery(modelsQueryFor(ChannelType.Anthropic), `${base}/v1`, 'ant-key', send)).toEqual(MODELS);
    expect(new URL(seen.at(-1)!.url, base).pathname).toBe('/v1/models');
  });
});
