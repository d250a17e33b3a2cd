import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of one instance. The relay records into these; /metrics
 * exposes them. Label values are bounded (model names and channel ids come
 * from the operator's configuration, not from free client input).
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'switchyard_' });
  const latencyBuckets = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05];
  return {
    registry,
    relayRequests: new Counter({
      name: 'switchyard_relay_requests_total',
      help: 'Relay requests by model, channel and HTTP status',
      labelNames: ['model', 'channel', 'status'] as const,
      registers: [registry],
    }),
    // OpenTelemetry (server/telemetry/): spans the exporter could not keep (queue full) or deliver (collector down).
    otelSpansDropped: new Counter({
      name: 'switchyard_otel_spans_dropped_total',
      help: 'Trace spans dropped: the export queue was full, or the collector refused or could not be reached',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    upstreamLatency: new Histogram({
      name: 'switchyard_upstream_latency_seconds',
      help: 'Time from sending to the upstream until its first byte',
      labelNames: ['channel'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    gatewayLatency: new Histogram({
      name: 'switchyard_gateway_added_latency_seconds',
      help: "The gateway's own time per request (auth, routing, billing), upstream excluded",
      buckets: latencyBuckets,
      registers: [registry],
    }),
    tokensBilled: new Counter({
      name: 'switchyard_tokens_billed_total',
      help: 'Prompt and completion tokens billed',
      labelNames: ['model', 'kind'] as const,
      registers: [registry],
    }),
    quotaBilled: new Counter({
      name: 'switchyard_quota_billed_total',
      help: 'Quota units billed',
      labelNames: ['model'] as const,
      registers: [registry],
    }),
    activeStreams: new Gauge({
      name: 'switchyard_active_streams',
      help: 'Streaming relay responses in flight',
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
