import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Anchor, Image, Text } from '@mantine/core';
import { CellText } from '../../components/CellText.tsx';
import type { TableColumn } from '../../components/DataTable.tsx';
import { formatTimestamp } from '../../lib/format.ts';
import { serverTextInLanguage } from '../../lib/server-messages.ts';
import { channelBadge, durationBadge, metaBadge, progressCell } from '../../components/task-cells.tsx';
import { actionMeta, codeMeta, durationSeconds, statusMeta } from './drawing-meta.ts';
import type { DrawingRow } from './types.ts';

const ms = (v: number) => (v ? formatTimestamp(Math.floor(v / 1000)) : '-');

function clip(text: string) {
  if (!text) return <Text c="dimmed">-</Text>;
  return <CellText>{text}</CellText>;
}

export function buildDrawingColumns(o: {
  i18n: I18n;
  admin: boolean;
  onPreview: (url: string) => void;
}): TableColumn<DrawingRow>[] {
  const { i18n } = o;
  const _ = (d: MessageDescriptor) => i18n._(d);
  const cols: TableColumn<DrawingRow>[] = [
    { accessor: 'submit_time', title: _(msg`Submit time`), phone: 'field', render: (r) => ms(r.submit_time) },
    { accessor: 'finish_time', title: _(msg`Finish time`), render: (r) => ms(r.finish_time) },
    {
      accessor: 'duration',
      title: _(msg`Duration`),
      // Spec §9: a drawing that took over a minute is shown in red.
      render: (r) => durationBadge(durationSeconds(r.submit_time, r.finish_time)),
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
      accessor: 'action',
      title: _(msg`Type`),
      phone: 'badge',
      render: (r) => metaBadge(actionMeta[r.action], r.action, i18n),
    },
    {
      accessor: 'mj_id',
      title: _(msg`Task ID`),
      phone: 'title',
      render: (r) => (
        <Text size="sm" ff="monospace">
          {r.mj_id || '-'}
        </Text>
      ),
    },
    {
      accessor: 'code',
      title: _(msg`Submit result`),
      render: (r) => metaBadge(codeMeta[r.code], String(r.code), i18n),
    },
    {
      accessor: 'status',
      title: _(msg`Status`),
      phone: 'badge',
      render: (r) => metaBadge(statusMeta[r.status], r.status, i18n),
    },
    {
      accessor: 'progress',
      title: _(msg`Progress`),
      phone: 'field',
      render: (r) => progressCell(r.progress, r.status),
    },
    {
      accessor: 'image_url',
      title: _(msg`Image`),
      phone: 'field',
      render: (r) =>
        r.image_url ? (
          <Anchor
            component="button"
            type="button"
            onClick={() => o.onPreview(r.image_url)}
            aria-label={_(msg`View image`)}
          >
            <Image src={r.image_url} w={48} h={48} radius="sm" fit="cover" alt="" />
          </Anchor>
        ) : (
          <Text c="dimmed">-</Text>
        ),
    },
    { accessor: 'prompt', title: _(msg`Prompt`), render: (r) => clip(r.prompt) },
    { accessor: 'prompt_en', title: _(msg`Prompt (English)`), render: (r) => clip(r.prompt_en) },
    {
      accessor: 'fail_reason',
      title: _(msg`Fail reason`),
      render: (r) =>
        r.fail_reason ? (
          // The gateway's own reason ("任务失败", task.failed) in the console's language; an upstream's as it came.
          <CellText c="red">{serverTextInLanguage(r.fail_reason)}</CellText>
        ) : (
          <Text c="dimmed">-</Text>
        ),
    },
  );
  return cols;
}
