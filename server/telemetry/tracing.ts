import type { Tracer } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type ReadableSpan,
  type Sampler,
  type Span,
  type SpanExporter,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { Context } from '@opentelemetry/api';
import type { Metrics } from '../ops/metrics.ts';
import type { TelemetryConfig } from './otel-config.ts';

/*
 * The OpenTelemetry SDK of one app instance (issue 41): a tracer provider of its own (never the global
 * one, so tests run several apps side by side), a batch processor with a bounded queue, and the OTLP/HTTP
 * exporter the protocol names. Exports run off the request path: a collector that is down costs the
 * spans (counted in switchyard_otel_spans_dropped_total), never a request.
 */

export interface Tracing {
  tracer: Tracer;
  /** Prompts and completions recorded as GenAI events (the operator's explicit choice). */
  captureContent: boolean;
  /** Exports what is queued, within `timeoutMs`; a collector that is down does not hold the shutdown. */
  shutdown(timeoutMs?: number): Promise<void>;
}

function samplerOf(c: TelemetryConfig): Sampler {
  const ratio = () => {
    const r = Number(c.samplerArg ?? '1');
    return new TraceIdRatioBasedSampler(Number.isFinite(r) ? Math.min(1, Math.max(0, r)) : 1);
  };
  switch (c.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** Counts the spans an export failed to deliver (collector down, refused, timed out). */
class CountingExporter implements SpanExporter {
  pending = 0;
  constructor(
    private readonly inner: SpanExporter,
    private readonly metrics: Metrics,
  ) {}
  export(spans: ReadableSpan[], done: (r: ExportResult) => void): void {
    this.inner.export(spans, (r) => {
      this.pending -= spans.length;
      if (r.code !== ExportResultCode.SUCCESS)
        this.metrics.otelSpansDropped.inc({ reason: 'export_failed' }, spans.length);
      done(r);
    });
  }
  shutdown() {
    return this.inner.shutdown();
  }
  forceFlush() {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/**
 * The batch processor behind a bound of our own: a span ended while `maxQueueSize` spans wait (queued
 * or being sent) is dropped and counted, so a slow collector never grows the heap.
 */
class BoundedProcessor implements SpanProcessor {
  constructor(
    private readonly inner: SpanProcessor,
    private readonly exporter: CountingExporter,
    private readonly max: number,
    private readonly metrics: Metrics,
  ) {}
  onStart(span: Span, parent: Context): void {
    this.inner.onStart(span, parent);
  }
  onEnd(span: ReadableSpan): void {
    if (this.exporter.pending >= this.max) {
      this.metrics.otelSpansDropped.inc({ reason: 'queue_full' });
      return;
    }
    this.exporter.pending++;
    this.inner.onEnd(span);
  }
  forceFlush() {
    return this.inner.forceFlush();
  }
  shutdown() {
    return this.inner.shutdown();
  }
}

/** The instance's tracing, or undefined when the OTEL_* variables leave it off. */
export function createTracing(c: TelemetryConfig | undefined, metrics: Metrics, version: string): Tracing | undefined {
  if (!c) return undefined;
  const options = { url: c.tracesUrl, headers: c.headers, timeoutMillis: c.timeoutMs };
  const exporter = new CountingExporter(
    c.protocol === 'http/json' ? new JsonExporter(options) : new ProtobufExporter(options),
    metrics,
  );
  const batch = new BatchSpanProcessor({
    exporter,
    maxQueueSize: c.maxQueueSize,
    maxExportBatchSize: Math.min(512, c.maxQueueSize),
    scheduledDelayMillis: c.scheduleDelayMs,
    exportTimeoutMillis: c.timeoutMs,
  });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      ...c.resourceAttributes,
      'service.name': c.serviceName,
      'service.version': c.resourceAttributes['service.version'] ?? version,
    }),
    sampler: samplerOf(c),
    spanProcessors: [new BoundedProcessor(batch, exporter, c.maxQueueSize, metrics)],
  });
  return {
    tracer: provider.getTracer('switchyard', version),
    captureContent: c.captureContent,
    async shutdown(timeoutMs = 5000) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs).unref()));
      await Promise.race([provider.shutdown().catch(() => undefined), deadline]);
      clearTimeout(timer);
    },
  };
}
