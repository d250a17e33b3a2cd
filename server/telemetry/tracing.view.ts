import type { TelemetryConfig } from './otel-config.ts';

/**
 * Tracing as the system settings page shows it (read-only: the OTEL_* variables set it). The header
 * values are left out (they usually carry the collector's API key): only their names are shown.
 */
export interface TracingView {
  enabled: boolean;
  tracesUrl: string;
  protocol: string;
  serviceName: string;
  sampler: string;
  samplerArg: string;
  headerNames: string[];
  resourceAttributes: string;
  captureContent: boolean;
}

export function tracingView(c: TelemetryConfig | undefined): TracingView {
  if (!c)
    return {
      enabled: false,
      tracesUrl: '',
      protocol: '',
      serviceName: '',
      sampler: '',
      samplerArg: '',
      headerNames: [],
      resourceAttributes: '',
      captureContent: false,
    };
  return {
    enabled: true,
    // Credentials in the URL (user:password@) are not shown either.
    tracesUrl: c.tracesUrl.replace(/\/\/[^/@]*@/, '//'),
    protocol: c.protocol,
    serviceName: c.serviceName,
    sampler: c.sampler,
    samplerArg: c.samplerArg ?? '',
    headerNames: Object.keys(c.headers),
    resourceAttributes: Object.entries(c.resourceAttributes)
      .map(([k, v]) => `${k}=${v}`)
      .join(', '),
    captureContent: c.captureContent,
  };
}
