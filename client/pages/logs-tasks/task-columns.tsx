import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Badge, Button, Text } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { channelTypeInfo } from '../../../shared/channel-types.ts';
import { CellText } from '../../components/CellText.tsx';
import type { TableColumn } from '../../components/DataTable.tsx';
import { Money } from '../../components/Money.tsx';
import { formatTimestamp } from '../../lib/format.ts';
import { serverTextInLanguage } from '../../lib/server-messages.ts';
import { channelBadge, durationBadge, metaBadge, progressCell } from '../../components/task-cells.tsx';
import { type TaskRow, taskResult } from './types.ts';

/**
 * Music and video actions (new-api's action names) and statuses (console spec §4); an empty status
 * means the task is still being submitted.
 */
const actionMeta: Record<string, { label: MessageDescriptor; color: string }> = {
  MUSIC: { label: msg`Generate music`, color: 'grape' },
  LYRICS: { label: msg`Generate lyrics`, color: 'pink' },
  textGenerate: { label: msg`Text to video`, color: 'cyan' },
  generate: { label: msg`Image to video`, color: 'teal' },
  firstTailGenerate: { label: msg`First and last frames to video`, color: 'teal' },
  referenceGenerate: { label: msg`Reference to video`, color: 'teal' },
  remixGenerate: { label: msg`Remix video`, color: 'violet' },
};

/** A video task's platform is its channel type number ("55"): shown by the type's name. */
const platformName = (r: TaskRow) =>
  r.platform === 'suno' ? 'Suno' : r.video ? (channelTypeInfo(Number(r.platform))?.name ?? r.platform) : r.platform;
const statusMeta: Record<string, { label: MessageDescriptor; color: string }> = {
  SUCCESS: { label: msg`Success`, color: 'green' },
  NOT_START: { label: msg`Not started`, color: 'gray' },
  SUBMITTED: { label: msg`Queued`, color: 'yellow' },
  QUEUED: { label: msg`Waiting in line`, color: 'orange' },
  IN_PROGRESS: { label: msg`In progress`, color: 'blue' },
  FAILURE: { label: msg`Failed`, color: 'red' },
  UNKNOWN: { label: msg`Unknown`, color: 'gray' },
  '': { label: msg`Submitting`, color: 'gray' },
};

export function buildTaskColumns(o: {
  i18n: I18n;
  admin: boolean;
  onOpen: (row: TaskRow) => void;
}): TableColumn<TaskRow>[] {
  const _ = (d: MessageDescriptor) => o.i18n._(d);
  const cols: TableColumn<TaskRow>[] = [
    {
      accessor: 'submit_time',
      title: _(msg`Submit time`),
      phone: 'field',
      render: (r) => formatTimestamp(r.submit_time),
    },
    { accessor: 'finish_time', title: _(msg`Finish time`), render: (r) => formatTimestamp(r.finish_time) },
    {
      accessor: 'duration',
      title: _(msg`Duration`),
      render: (r) => durationBadge(r.finish_time && r.submit_time ? r.finish_time - r.submit_time : null),
    },
  ];
  if (o.admin)
    cols.push({
      accessor: 'channel_id',
      title: _(msg`Channel`),
      phone: 'field',
      render: (r) => channelBadge(r.channel_id),
    });
  cols.push(
    {
      accessor: 'platform',
      title: _(msg`Platform`),
      phone: 'badge',
      render: (r) => (
        <Badge miw="max-content" variant="light" color="indigo" tt="none">
          {platformName(r)}
        </Badge>
      ),
    },
    {
      accessor: 'action',
      title: _(msg`Type`),
      phone: 'badge',
      render: (r) => metaBadge(actionMeta[r.action], r.action, o.i18n),
    },
    {
      accessor: 'task_id',
      title: _(msg`Task ID`),
      phone: 'title',
      render: (r) => (
        <Text size="sm" ff="monospace">
          {r.task_id}
        </Text>
      ),
    },
    {
      accessor: 'status',
      title: _(msg`Status`),
      phone: 'badge',
      render: (r) => metaBadge(statusMeta[r.status], r.status, o.i18n),
    },
    {
      accessor: 'progress',
      title: _(msg`Progress`),
      phone: 'field',
      render: (r) => progressCell(r.progress, r.status),
    },
    {
      accessor: 'seconds',
      title: _(msg`Video length`),
      phone: 'field',
      render: (r) => {
        const seconds = r.video?.seconds ?? 0;
        if (seconds <= 0) return <Text c="dimmed">-</Text>;
        return (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {_(msg`${seconds} s`)}
            {r.video?.size ? ` · ${r.video.size}` : ''}
          </Text>
        );
      },
    },
    {
      accessor: 'quota',
      title: _(msg`Cost`),
      phone: 'field',
      // Held at submit, settled on what the upstream produced, back to 0 when refunded (issue 40).
      render: (r) => <Money quota={r.quota} />,
    },
    {
      accessor: 'fail_reason',
      title: _(msg`Fail reason`),
      // On a phone a failed job says why on its card, not one tap away.
      phone: 'wide',
      render: (r) =>
        r.fail_reason ? (
          // The gateway's own reason ("任务失败", task.failed) in the console's language; an upstream's as it came.
          <CellText c="red" lines={2} maxWidth={320}>
            {serverTextInLanguage(r.fail_reason)}
          </CellText>
        ) : (
          <Text c="dimmed">-</Text>
        ),
    },
    {
      accessor: 'result',
      title: _(msg`Result`),
      phone: 'actions',
      render: (r) => {
        if (r.status !== 'SUCCESS') return <Text c="dimmed">-</Text>;
        // A video plays from the gateway; a Suno task shows its lyrics or clips; anything else has no result.
        const res = r.video ? null : taskResult(r.data);
        const label = r.video
          ? _(msg`Watch video`)
          : res?.lyrics
            ? _(msg`View lyrics`)
            : res?.clips.length
              ? _(msg`Listen`)
              : null;
        if (!label) return <Text c="dimmed">-</Text>;
        return (
          <Button
            size="compact-xs"
            variant="light"
            leftSection={<IconPlayerPlay size={12} />}
            onClick={() => o.onOpen(r)}
          >
            {label}
          </Button>
        );
      },
    },
  );
  return cols;
}
