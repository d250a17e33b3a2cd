import '@mantine/dates/styles.css';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { trpc } from '../../../trpc.ts';
import { msg } from '@lingui/core/macro';
import type { FieldDef } from '../form/fields.ts';
import { OptionsSection } from '../form/OptionsSection.tsx';

const fields: FieldDef[] = [
  { key: 'LogConsumeEnabled', kind: 'switch', label: msg`Record usage logs`, span: 12 },
  {
    key: 'ErrorLogEnabled',
    kind: 'switch',
    label: msg`Record error logs`,
    description: msg`Failed relay calls and retried attempts appear in the usage log under "Error"; they are never billed`,
    span: 12,
  },
];

/** Usage- and error-log switches, and deleting the history older than a chosen time. */
export function LogsSection() {
  const { t } = useLingui();
  const [before, setBefore] = useState<string | null>(null);
  const clear = trpc.logsCleanup.deleteBefore.useMutation({
    onSuccess: (d) => notifications.show({ color: 'teal', message: t`${d.deleted} logs deleted` }),
    onError: (e) => notifications.show({ color: 'red', message: t`Log cleaning failed` + `: ${errorMessage(e)}` }),
  });

  const confirm = () => {
    if (!before) {
      notifications.show({ color: 'yellow', message: t`Please choose the log time` });
      return;
    }
    const ts = Math.floor(new Date(before.replace(' ', 'T')).getTime() / 1000);
    modals.openConfirmModal({
      title: t`Delete old logs?`,
      children: t`Every log before ${before} will be deleted. This cannot be undone.`,
      labels: { confirm: t`Delete`, cancel: t`Cancel` },
      confirmProps: { color: 'red' },
      onConfirm: () => clear.mutate({ targetTimestamp: ts }),
    });
  };

  return (
    <OptionsSection title={<Trans>Logs</Trans>} fields={fields} testId="section-logs">
      {() => (
        <Group align="flex-end" gap="xs">
          <DateTimePicker
            label={t`Delete logs before`}
            value={before}
            onChange={setBefore}
            valueFormat="YYYY-MM-DD HH:mm"
            clearable
            w={{ base: '100%', xs: 240 }}
            data-testid="logs-before"
          />
          <Button color="red" variant="light" loading={clear.isPending} onClick={confirm}>
            <Trans>Clear history logs</Trans>
          </Button>
        </Group>
      )}
    </OptionsSection>
  );
}
