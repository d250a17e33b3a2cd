import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Code, Group, Table, Text } from '@mantine/core';
import { StatusDot } from '../../../components/StatusDot.tsx';
import { trpc } from '../../../trpc.ts';
import { SectionFrame } from '../form/OptionsSection.tsx';

/**
 * OpenTelemetry tracing (issue 41), read-only: the standard OTEL_* environment variables set it, so
 * the page shows what the running instance uses and which variables change it. Header values (the
 * collector's API key) never reach the console, only their names.
 */
export function TracingSection() {
  const q = trpc.status.tracing.useQuery();
  const v = q.data;
  const rows: [string, ReactNode, string][] = v?.enabled
    ? [
        ['OTEL_EXPORTER_OTLP_ENDPOINT', <Code key="u">{v.tracesUrl}</Code>, 'tracesUrl'],
        ['OTEL_EXPORTER_OTLP_PROTOCOL', v.protocol, 'protocol'],
        ['OTEL_SERVICE_NAME', v.serviceName, 'serviceName'],
        ['OTEL_TRACES_SAMPLER', v.samplerArg ? `${v.sampler} (${v.samplerArg})` : v.sampler, 'sampler'],
        ['OTEL_EXPORTER_OTLP_HEADERS', v.headerNames.join(', ') || '—', 'headers'],
        ['OTEL_RESOURCE_ATTRIBUTES', v.resourceAttributes || '—', 'resource'],
        [
          'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT',
          v.captureContent ? (
            <Trans key="c">On: prompts and completions are exported</Trans>
          ) : (
            <Trans key="c">Off</Trans>
          ),
          'capture',
        ],
      ]
    : [];
  return (
    <SectionFrame
      title={
        <Group gap="sm">
          <Trans>Tracing (OpenTelemetry)</Trans>
          {v && (
            <StatusDot color={v.enabled ? 'teal' : 'gray'} data-testid="tracing-state">
              {v.enabled ? <Trans>On</Trans> : <Trans>Off</Trans>}
            </StatusDot>
          )}
        </Group>
      }
      description={
        <Trans>
          Read-only: set by the standard OTEL_* environment variables and applied on restart. Spans follow the GenAI
          semantic conventions and never carry keys or cookies.
        </Trans>
      }
      testId="section-tracing"
    >
      {v && !v.enabled && (
        <Text size="sm">
          <Trans>
            Set <Code>OTEL_EXPORTER_OTLP_ENDPOINT</Code> (e.g. http://localhost:4318) to export traces to Jaeger,
            Grafana Tempo, Langfuse or any OTLP collector.
          </Trans>
        </Text>
      )}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={0}>
          <Table withRowBorders={false} verticalSpacing={4} layout="fixed">
            <Table.Tbody>
              {rows.map(([name, value, id]) => (
                <Table.Tr key={id}>
                  <Table.Td w="45%" style={{ overflowWrap: 'anywhere' }}>
                    <Text size="xs" ff="monospace" c="dimmed">
                      {name}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Text size="sm" data-testid={`tracing-${id}`}>
                      {value}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </SectionFrame>
  );
}
