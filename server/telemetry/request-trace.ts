import {
  type Attributes,
  type Context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Tracing } from './tracing.ts';

/*
 * One SERVER span per HTTP request (console, /api, /trpc and the relay), joined to the client's trace
 * when it sends a W3C `traceparent`. The relay enriches its requests' spans with the GenAI attributes
 * (genai.ts). Recorded: method, route, path without its query (Gemini keys travel in ?key=), status.
 * Never recorded: headers, cookies, bodies. A span ends when the connection is done with the answer
 * ('close': a stream's end, or a client gone) and, for a relayed call, once its usage is settled.
 */

export interface RequestTrace {
  span: Span;
  /** The span's context: the parent of the relay's attempt spans. */
  context: Context;
  tracing: Tracing;
  /** Work the span waits for before it ends (the settlement that knows the usage). */
  holds: number;
  closed: boolean;
  /** The status the client got (499 when it went away first), once the connection is done. */
  status: number;
  /** The relay's own failure (genai.ts): its error.type; the status is the one the client got. */
  errorType?: string;
}

const traces = new WeakMap<FastifyRequest, RequestTrace>();
const propagator = new W3CTraceContextPropagator();

/** The request's trace, when tracing is on and the request is sampled. */
export const traceOf = (req: FastifyRequest): RequestTrace | undefined => traces.get(req);

/** The W3C `traceparent` (and `tracestate`) naming `span`, for a request that continues the trace. */
export function traceHeaders(span: Span): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagator.inject(trace.setSpan(ROOT_CONTEXT, span), carrier, defaultTextMapSetter);
  return carrier;
}

function end(t: RequestTrace, status: number): void {
  const { span } = t;
  span.setAttribute('http.response.status_code', status);
  if (t.errorType !== undefined || status >= 500) {
    span.setAttribute('error.type', t.errorType ?? String(status));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/** Keeps the span open until `release` (called once) for work that finishes after the answer. */
export function holdTrace(t: RequestTrace): () => void {
  t.holds++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--t.holds === 0 && t.closed) end(t, t.status);
  };
}

/** Registered first on the app, so every later hook's log lines carry the trace id. */
export function registerRequestTracing(app: FastifyInstance, tracing: Tracing): void {
  app.addHook('onRequest', (req, reply, done) => {
    const parent = propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
    const route = req.routeOptions.url;
    const attributes: Attributes = {
      'http.request.method': req.method,
      'url.path': req.url.split('?')[0],
      'url.scheme': req.protocol,
      'switchyard.request_id': req.id,
    };
    if (route) attributes['http.route'] = route;
    // `{method} {route}`, or the method alone for a path no route knows (the spec's rule: bounded names).
    const span = tracing.tracer.startSpan(
      route ? `${req.method} ${route}` : req.method,
      { kind: SpanKind.SERVER, attributes },
      parent,
    );
    if (!span.isRecording()) return done();
    const t: RequestTrace = { span, context: trace.setSpan(parent, span), tracing, holds: 0, closed: false, status: 0 };
    traces.set(req, t);
    const sc = span.spanContext();
    req.log = req.log.child({ trace_id: sc.traceId, span_id: sc.spanId });
    const res = reply.raw;
    res.once('close', () => {
      t.closed = true;
      // A client that went away before the whole answer was written: 499, as the relay counts it.
      t.status = res.writableFinished ? res.statusCode : 499;
      if (t.holds === 0) end(t, t.status);
    });
    done();
  });
}
