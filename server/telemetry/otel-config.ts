/*
 * OpenTelemetry's standard variables (issue 41), read once with the rest of the configuration. Tracing
 * is off until an OTLP endpoint is named; nothing here is Switchyard's own except the defaults.
 * https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/
 */

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface TelemetryConfig {
  /** The full OTLP/HTTP traces URL (…/v1/traces). */
  tracesUrl: string;
  protocol: OtlpProtocol;
  /** OTEL_EXPORTER_OTLP_(TRACES_)HEADERS: sent to the collector, never shown (they often carry an API key). */
  headers: Record<string, string>;
  timeoutMs: number;
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES, parsed. */
  resourceAttributes: Record<string, string>;
  sampler: string;
  samplerArg?: string;
  /** The batch processor's bound: spans beyond it are dropped (and counted), never waited for. */
  maxQueueSize: number;
  scheduleDelayMs: number;
  /** OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: prompts and completions as GenAI events. */
  captureContent: boolean;
}

/** A problem with these variables, reported with the rest of the configuration's. */
export class TelemetryConfigError extends Error {}

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

/** `k1=v1,k2=v2`, each part percent-decoded (the spec's W3C Baggage-like form). */
export function parseKeyValues(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (raw ?? '').split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const k = part.slice(0, eq).trim();
    const v = part.slice(eq + 1).trim();
    try {
      out[decodeURIComponent(k)] = decodeURIComponent(v);
    } catch {
      out[k] = v;
    }
  }
  return out;
}

const positive = (raw: string | undefined, fallback: number) => {
  const n = Number(raw);
  return raw && Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
};

/** The tracing configuration, or undefined when tracing is off (no endpoint, SDK disabled, exporter none). */
export function telemetryConfig(env: NodeJS.ProcessEnv): TelemetryConfig | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === 'none') return undefined;
  const signal = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!signal && !base) return undefined;
  // The signal's own endpoint is used as given; the shared one gets the traces path (the spec's rule).
  const tracesUrl = signal || `${base!.replace(/\/+$/, '')}/v1/traces`;
  if (!/^https?:\/\//i.test(tracesUrl))
    throw new TelemetryConfigError('OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL such as http://localhost:4318');
  const protocol = (
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ||
    env.OTEL_EXPORTER_OTLP_PROTOCOL ||
    'http/protobuf'
  ).trim();
  if (protocol !== 'http/protobuf' && protocol !== 'http/json')
    throw new TelemetryConfigError(
      `OTEL_EXPORTER_OTLP_PROTOCOL: ${protocol} is not supported; use http/protobuf or http/json (port 4318)`,
    );
  const sampler = (env.OTEL_TRACES_SAMPLER || 'parentbased_always_on').trim().toLowerCase();
  if (!SAMPLERS.includes(sampler))
    throw new TelemetryConfigError(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')}`);
  const resourceAttributes = parseKeyValues(env.OTEL_RESOURCE_ATTRIBUTES);
  return {
    tracesUrl,
    protocol,
    headers: {
      ...parseKeyValues(env.OTEL_EXPORTER_OTLP_HEADERS),
      ...parseKeyValues(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
    },
    timeoutMs: positive(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT || env.OTEL_EXPORTER_OTLP_TIMEOUT, 10_000),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || resourceAttributes['service.name'] || 'switchyard',
    resourceAttributes,
    sampler,
    samplerArg: env.OTEL_TRACES_SAMPLER_ARG?.trim() || undefined,
    maxQueueSize: positive(env.OTEL_BSP_MAX_QUEUE_SIZE, 2048),
    scheduleDelayMs: positive(env.OTEL_BSP_SCHEDULE_DELAY, 5000),
    captureContent: env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase() === 'true',
  };
}
