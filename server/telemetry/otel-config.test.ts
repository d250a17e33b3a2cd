import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { telemetryConfig } from './otel-config.ts';
import { tracingView } from './tracing.view.ts';

/* The standard OTEL_* variables as an operator sets them (issue 41): tracing stays off until an endpoint is named. */

describe('OTEL_* variables', () => {
  it('no endpoint, or the SDK turned off: no tracing at all', () => {
    expect(telemetryConfig({})).toBeUndefined();
    expect(telemetryConfig({ OTEL_SERVICE_NAME: 'gw' })).toBeUndefined();
    expect(
      telemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }),
    ).toBeUndefined();
    expect(
      telemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }),
    ).toBeUndefined();
  });

  it('the shared endpoint gets /v1/traces, the signal endpoint is used as given, defaults as the spec says', () => {
    const c = telemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })!;
    expect(c).toMatchObject({
      tracesUrl: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      serviceName: 'switchyard',
      sampler: 'parentbased_always_on',
      captureContent: false,
    });
    expect(
      telemetryConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://tempo.example/otlp/v1/traces',
      })!.tracesUrl,
    ).toBe('https://tempo.example/otlp/v1/traces');
  });

  it('headers and resource attributes are read, and the console sees header names only', () => {
    const c = telemetryConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=s3cr%3Dt,x-team=ops',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.namespace=ai',
      OTEL_TRACES_SAMPLER: 'traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    })!;
    expect(c.headers).toEqual({ 'x-api-key': 's3cr=t', 'x-team': 'ops' });
    const view = tracingView(c);
    expect(view).toMatchObject({
      enabled: true,
      headerNames: ['x-api-key', 'x-team'],
      sampler: 'traceidratio',
      samplerArg: '0.25',
    });
    expect(JSON.stringify(view)).not.toContain('s3cr');
  });

  it('an unsupported protocol stops the start with one line saying what to use', () => {
    expect(() =>
      loadConfig({
        DATA_DIR: '/tmp/switchyard-otel-config',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      }),
    ).toThrow(ConfigError);
    expect(() =>
      telemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toThrow('use http/protobuf or http/json');
  });
});
