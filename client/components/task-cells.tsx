import type { I18n, MessageDescriptor } from '@lingui/core';
import { Badge, Progress, Stack, Text } from '@mantine/core';

/*
 * Cells the drawing and music task logs share: labelled status badges, the progress
 * bar, the duration (red past a minute, spec §9) and the admin's channel column.
 */

export interface BadgeMeta {
  label: MessageDescriptor;
  color: string;
}

/** "45%" -> 45; anything unparsable -> 0. */
export const progressValue = (p: string) => Math.max(0, Math.min(100, Number.parseInt(p, 10) || 0));

/** A known value as its translated, coloured label; an unknown one as it came (gray). */
export function metaBadge(meta: BadgeMeta | undefined, raw: string, i18n: I18n) {
  return (
    <Badge miw="max-content" variant="light" color={meta?.color ?? 'gray'} tt="none">
      {meta ? i18n._(meta.label) : raw || '-'}
    </Badge>
  );
}

export function progressCell(progress: string, status: string) {
  return (
    <Stack gap={2} miw={90}>
      <Progress
        value={progressValue(progress)}
        color={status === 'FAILURE' ? 'red' : status === 'SUCCESS' ? 'green' : 'blue'}
        size="sm"
      />
      <Text size="xs" c="dimmed">
        {progress || '0%'}
      </Text>
    </Stack>
  );
}

/** Seconds a task took (null while unfinished); over a minute is shown in red. */
export function durationBadge(seconds: number | null) {
  if (seconds === null) return <Text c="dimmed">-</Text>;
  return (
    <Badge miw="max-content" variant="light" color={seconds > 60 ? 'red' : 'green'} tt="none">
      {seconds} s
    </Badge>
  );
}

export function channelBadge(id: number) {
  return (
    <Badge miw="max-content" variant="outline" color="gray" tt="none">
      #{id}
    </Badge>
  );
}
