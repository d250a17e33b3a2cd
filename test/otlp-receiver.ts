import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

/*
 * A real OTLP/HTTP trace receiver for tests (issue 41): what a collector on :4318 gets, in either
 * encoding the exporter speaks. Protobuf is decoded with protobufjs against the subset of
 * opentelemetry-proto's trace schema the assertions read (field numbers as in trace.proto).
 */

const PROTO = `
syntax = "proto3";
message AnyValue { oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3;
  double double_value = 4; ArrayValue array_value = 5; bytes bytes_value = 7; } }
message ArrayValue { repeated AnyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message Resource { repeated KeyValue attributes = 1; }
message Status { string message = 2; int32 code = 3; }
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; }
message Span { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4;
  string name = 5; int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9; repeated Event events = 11; Status status = 15; }
message ScopeSpans { repeated Span spans = 2; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
`;
const Request = protobuf.parse(PROTO, { keepCase: false }).root.lookupType('ExportTraceServiceRequest');

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  url: string;
  /** Every export as received: its content type, headers and raw bytes. */
  exports: { contentType: string; headers: IncomingHttpHeaders; raw: Buffer }[];
  spans(): ReceivedSpan[];
  /** Waits until a span matches (the batch processor exports on its own schedule). */
  waitFor(match: (s: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

const hex = (v: unknown) =>
  v instanceof Uint8Array ? Buffer.from(v).toString('hex') : typeof v === 'string' ? v.toLowerCase() : '';

function valueOf(v: Json | undefined): unknown {
  if (!v) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('arrayValue' in v) return ((v.arrayValue as Json).values as Json[] | undefined)?.map(valueOf) ?? [];
  return undefined;
}

const attrs = (list: unknown) =>
  Object.fromEntries(((list as Json[] | undefined) ?? []).map((kv) => [kv.key, valueOf(kv.value as Json)]));

/** Both encodings read into one shape (the JSON one carries ids as hex, the protobuf one as bytes). */
function spansOf(req: Json): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of (req.resourceSpans as Json[] | undefined) ?? []) {
    const resource = attrs((rs.resource as Json | undefined)?.attributes);
    for (const ss of (rs.scopeSpans as Json[] | undefined) ?? [])
      for (const s of (ss.spans as Json[] | undefined) ?? [])
        out.push({
          traceId: hex(s.traceId),
          spanId: hex(s.spanId),
          parentSpanId: hex(s.parentSpanId),
          name: String(s.name),
          kind: Number(s.kind ?? 0),
          startNs: BigInt(String(s.startTimeUnixNano ?? 0)),
          endNs: BigInt(String(s.endTimeUnixNano ?? 0)),
          attributes: attrs(s.attributes),
          events: ((s.events as Json[] | undefined) ?? []).map((e) => ({
            name: String(e.name),
            attributes: attrs(e.attributes),
          })),
          statusCode: Number((s.status as Json | undefined)?.code ?? 0),
          resource,
        });
  }
  return out;
}

function decode(contentType: string, raw: Buffer): ReceivedSpan[] {
  if (contentType.includes('json')) return spansOf(JSON.parse(raw.toString('utf8')) as Json);
  const msg = Request.decode(raw);
  return spansOf(Request.toObject(msg, { longs: String, bytes: Buffer, defaults: false }) as Json);
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: OtlpReceiver['exports'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const contentType = String(req.headers['content-type'] ?? '');
      if (req.method === 'POST' && req.url === '/v1/traces')
        exports.push({ contentType, headers: req.headers, raw: Buffer.concat(chunks) });
      // An empty ExportTraceServiceResponse: full success.
      if (contentType.includes('json')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      } else {
        res.writeHead(200, { 'content-type': 'application/x-protobuf' });
        res.end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const spans = () => exports.flatMap((e) => decode(e.contentType, e.raw));
  return {
    url,
    exports,
    spans,
    async waitFor(match, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = spans().find(match);
        if (found) return found;
        if (Date.now() > until) throw new Error('no matching span was exported in time');
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
