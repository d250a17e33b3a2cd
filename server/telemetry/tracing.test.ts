import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { trpcCaller } from '../../test/users.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../test/otlp-receiver.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../test/relay-fixtures.ts';
import { telemetryConfig } from './otel-config.ts';

/*
 * OpenTelemetry traces (issue 41) as an operator's collector receives them: a real OTLP/HTTP receiver
 * (protobuf and JSON), the gateway configured only by the standard OTEL_* variables, real relayed calls
 * to the fake upstream. The spans carry the GenAI attributes and usage, one child span per upstream
 * attempt, the client's trace and an error status; never the prompt or a key; and a collector that is
 * down costs the spans, not the answers.
 */

const MODEL = 'gpt-4o-mini';
const PROMPT = 'the secret prompt 7f3a9c';
const CHANNEL_KEY = 'sk-channel-key-5b1e88d2';
const COLLECTOR_KEY = 'collector-api-key-c0ffee';

let receiver: OtlpReceiver;
let h: RelayHarness;
let key: string;
let userId: number;
let tokenId: number;
let good: number;
let deadUrl: string;

/** A loopback port that was just open and has nothing listening now: connections are refused. */
async function refusedUrl() {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise<void>((r) => probe.close(() => r()));
  return url;
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  deadUrl = await refusedUrl();
  h = await startRelayHarness(
    {},
    {
      telemetry: telemetryConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_HEADERS: `x-collector-key=${COLLECTOR_KEY}`,
        OTEL_SERVICE_NAME: 'gateway-under-test',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      }),
    },
  );
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify({ [MODEL]: 1, 'stream-model': 1, 'failover-model': 1, 'only-broken': 1 }),
  });
  // The fake reads its behaviour from the model and the key: six chunks, 40 ms apart.
  await insertChannel(h.deps, {
    name: 'slow stream',
    baseUrl: h.fake.url,
    key: 'k+chunks-6+gap-40',
    models: ['stream-model'],
  });
  good = await insertChannel(h.deps, { name: 'good', baseUrl: h.fake.url, key: CHANNEL_KEY, models: [MODEL] });
  const user = await insertUser(h.deps);
  const token = await insertToken(h.deps, user.id, { unlimited: true });
  ({ key } = token);
  userId = user.id;
  tokenId = token.id;
});
afterAll(async () => {
  await h.close();
  await receiver.close();
});

async function chat(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(`${h.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: PROMPT }], ...body }),
  });
  const text = await res.text();
  return { res, text, requestId: String(res.headers.get('x-request-id')) };
}

const relaySpan = (requestId: string) =>
  receiver.waitFor((s) => s.attributes['switchyard.request_id'] === requestId && s.kind === 2);
const childrenOf = (parent: ReceivedSpan) =>
  receiver.spans().filter((s) => s.parentSpanId === parent.spanId && s.traceId === parent.traceId);

describe('relay spans over OTLP/HTTP protobuf', () => {
  it('a chat answer: one span with the GenAI attributes, the usage billed and Switchyard own', async () => {
    const { res, text, requestId } = await chat({ max_tokens: 64, temperature: 0.3 });
    expect(res.status).toBe(200);
    const usage = (JSON.parse(text) as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    const span = await relaySpan(requestId);
    expect(span.name).toBe(`chat ${MODEL}`);
    expect(span.resource['service.name']).toBe('gateway-under-test');
    expect(span.resource['deployment.environment']).toBe('test');
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': MODEL,
      'gen_ai.response.model': MODEL,
      'gen_ai.request.max_tokens': 64,
      'gen_ai.request.temperature': 0.3,
      'gen_ai.usage.input_tokens': usage.prompt_tokens,
      'gen_ai.usage.output_tokens': usage.completion_tokens,
      'gen_ai.usage.cache_read.input_tokens': 0,
      'gen_ai.response.finish_reasons': ['stop'],
      'switchyard.channel.id': good,
      'switchyard.channel.type': 1,
      'switchyard.token.id': tokenId,
      'switchyard.user.id': userId,
      'switchyard.group': 'default',
      'switchyard.attempts': 1,
      'http.response.status_code': 200,
    });
    expect(span.attributes['switchyard.quota']).toBeGreaterThan(0);
    expect(span.attributes['switchyard.gateway.duration_ms']).toBeGreaterThan(0);
    expect(span.statusCode).not.toBe(2);
    const attempts = childrenOf(span);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ kind: 3, attributes: { 'http.response.status_code': 200 } });
    // The collector got the operator's header (OTEL_EXPORTER_OTLP_HEADERS), protobuf-encoded.
    expect(receiver.exports.at(-1)!.headers['x-collector-key']).toBe(COLLECTOR_KEY);
    expect(receiver.exports.at(-1)!.contentType).toBe('application/x-protobuf');
  });

  it('a stream: the span ends when the stream ends, with time to first chunk and the usage', async () => {
    const sentAt = BigInt(Date.now()) * 1_000_000n;
    const { res, text, requestId } = await chat({
      model: 'stream-model',
      stream: true,
      stream_options: { include_usage: true },
    });
    const endedAt = BigInt(Date.now()) * 1_000_000n;
    expect(res.status).toBe(200);
    expect(text).toContain('[DONE]');
    const span = await relaySpan(requestId);
    expect(span.attributes['switchyard.stream']).toBe(true);
    expect(span.attributes['gen_ai.usage.output_tokens']).toBe(6);
    expect(span.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    const ttfc = span.attributes['gen_ai.response.time_to_first_chunk'] as number;
    expect(ttfc).toBeGreaterThan(0);
    // Six chunks 40 ms apart: the span lasts the whole stream, well past the first chunk.
    const seconds = Number(span.endNs - span.startNs) / 1e9;
    expect(seconds).toBeGreaterThan(ttfc + 0.15);
    expect(span.startNs).toBeGreaterThanOrEqual(sentAt - 50_000_000n);
    expect(span.endNs).toBeLessThanOrEqual(endedAt + 50_000_000n);
  });

  it('a failover: one attempt span per try, each with its status', async () => {
    const model = 'failover-model';
    await insertChannel(h.deps, {
      name: 'broken',
      baseUrl: h.fake.url,
      key: 'k+fail-503',
      models: [model],
      priority: 10,
    });
    await insertChannel(h.deps, { name: 'refused', baseUrl: deadUrl, models: [model], priority: 5 });
    await insertChannel(h.deps, { name: 'fine', baseUrl: h.fake.url, models: [model], priority: 0 });
    const { res, requestId } = await chat({ model });
    expect(res.status).toBe(200);
    const span = await relaySpan(requestId);
    expect(span.attributes['switchyard.attempts']).toBe(3);
    const tries = childrenOf(span).sort((a, b) => Number(a.startNs - b.startNs));
    expect(
      tries.map((t) => [t.attributes['switchyard.attempt'], t.attributes['http.response.status_code'], t.statusCode]),
    ).toEqual([
      [1, 503, 2],
      [2, undefined, 2],
      [3, 200, 0],
    ]);
    expect(tries[1].attributes['error.type']).toBe('upstream_connection_error');
    expect(span.statusCode).not.toBe(2);
  });

  it('a failed call: the span is in error, with the status the client got and error.type', async () => {
    const model = 'only-broken';
    await insertChannel(h.deps, { name: 'broken only', baseUrl: h.fake.url, key: 'k+fail-500', models: [model] });
    const { res, requestId } = await chat({ model });
    expect(res.status).toBe(500);
    const span = await relaySpan(requestId);
    expect(span.statusCode).toBe(2);
    expect(span.attributes['http.response.status_code']).toBe(500);
    expect(span.attributes['error.type']).toBeTruthy();
  });

  it("joins the client's trace and passes a traceparent on to the upstream", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    const before = h.fake.requests.length;
    const { res, requestId } = await chat({}, { traceparent: `00-${traceId}-${parent}-01` });
    expect(res.status).toBe(200);
    const span = await relaySpan(requestId);
    expect(span.traceId).toBe(traceId);
    expect(span.parentSpanId).toBe(parent);
    const [attempt] = childrenOf(span);
    const sent = h.fake.requests.slice(before).map((r) => r.headers.traceparent);
    expect(sent).toEqual([`00-${traceId}-${attempt.spanId}-01`]);
  });

  it('never exports the prompt, the completion, the token or the channel key', async () => {
    const { res, text, requestId } = await chat({});
    expect(res.status).toBe(200);
    await relaySpan(requestId);
    const completion = (JSON.parse(text) as { choices: { message: { content: string } }[] }).choices[0].message.content;
    const everything = Buffer.concat(receiver.exports.map((e) => e.raw)).toString('latin1');
    expect(everything).toContain(requestId);
    for (const secret of [PROMPT, completion, key, key.slice(3), CHANNEL_KEY, COLLECTOR_KEY])
      expect(everything).not.toContain(secret);
  });
});

describe('OTLP/HTTP JSON, console requests, log lines and content capture', () => {
  let t: TestApp;
  let json: OtlpReceiver;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    json = await startOtlpReceiver();
    t = await createTestApp(
      {
        telemetry: telemetryConfig({
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${json.url}/v1/traces`,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_BSP_SCHEDULE_DELAY: '50',
          OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
        }),
      },
      {
        logTo: new Writable({
          write(chunk: Buffer, _enc, done) {
            for (const l of chunk.toString('utf8').split('\n'))
              if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
            done();
          },
        }),
      },
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
    await json.close();
  });

  it('an /api request is a span in the JSON encoding, and its log line carries the trace id', async () => {
    const traceId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const { port } = t.app.server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/api/status?x=1`, {
      headers: { traceparent: `00-${traceId}-1111111111111111-01` },
    });
    expect(res.status).toBe(200);
    const span = await json.waitFor((s) => s.traceId === traceId);
    expect(span).toMatchObject({ name: 'GET /api/status', kind: 2, parentSpanId: '1111111111111111' });
    expect(span.attributes).toMatchObject({ 'url.path': '/api/status', 'http.response.status_code': 200 });
    expect(json.exports[0].contentType).toBe('application/json');
    const line = lines.find((l) => l.msg === 'request completed' && l.path === '/api/status');
    expect(line).toMatchObject({ trace_id: traceId, span_id: span.spanId });
  });

  it('the system settings card: root reads the configuration, an admin may not', async () => {
    const view = await trpcCaller(t, { id: 1, role: Role.Root }).status.tracing();
    expect(view).toMatchObject({
      enabled: true,
      tracesUrl: `${json.url}/v1/traces`,
      protocol: 'http/json',
      captureContent: true,
    });
    await expect(trpcCaller(t, { id: 2, role: Role.Admin }).status.tracing()).rejects.toThrow();
  });

  it('with content capture on, the prompt is a GenAI event of the relay span', async () => {
    const fake = await startRelayHarness();
    try {
      await insertChannel(t.deps, { baseUrl: fake.fake.url, models: [MODEL] });
      const user = await insertUser(t.deps);
      const token = await insertToken(t.deps, user.id, { unlimited: true });
      const { port } = t.app.server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: PROMPT }] }),
      });
      expect(res.status).toBe(200);
      await res.text();
      const span = await json.waitFor((s) => s.attributes['switchyard.request_id'] === res.headers.get('x-request-id'));
      const events = span.events.filter((e) => e.name === 'gen_ai.client.inference.operation.details');
      expect(String(events[0]?.attributes['gen_ai.input.messages'])).toContain(PROMPT);
      expect(String(events[1]?.attributes['gen_ai.output.messages'])).toContain('assistant');
    } finally {
      await fake.close();
    }
  });
});

describe('a collector that is down', () => {
  it('the gateway keeps answering at once, and the lost spans are counted', async () => {
    const down = await startRelayHarness(
      {},
      {
        telemetry: telemetryConfig({
          OTEL_EXPORTER_OTLP_ENDPOINT: deadUrl,
          OTEL_BSP_SCHEDULE_DELAY: '20',
          OTEL_EXPORTER_OTLP_TIMEOUT: '500',
        }),
      },
    );
    try {
      await insertChannel(down.deps, { baseUrl: down.fake.url, models: [MODEL] });
      const user = await insertUser(down.deps);
      const token = await insertToken(down.deps, user.id, { unlimited: true });
      const started = Date.now();
      for (let i = 0; i < 20; i++) {
        const r = await down
          .client(token.key)
          .chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
        expect(r.choices[0].message.content).toBeTruthy();
      }
      expect(Date.now() - started).toBeLessThan(5000);
      const dropped = async () =>
        (await down.deps.metrics.otelSpansDropped.get()).values.reduce((n, v) => n + v.value, 0);
      const until = Date.now() + 10_000;
      while ((await dropped()) === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(await dropped()).toBeGreaterThan(0);
    } finally {
      await down.close();
    }
  });
});
