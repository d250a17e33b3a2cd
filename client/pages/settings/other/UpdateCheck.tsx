import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { msg } from '@lingui/core/macro';
import { trpc } from '../../../trpc.ts';
import type { FieldDef } from '../form/fields.ts';
import { OptionsSection } from '../form/OptionsSection.tsx';

const fields: FieldDef[] = [
  { key: 'UpdateCheckEnabled', kind: 'switch', label: msg`Tell administrators about new versions`, span: 12 },
];

/** The running version, and a fresh look at it (the server answers with what it runs). */
export function UpdateCheck() {
  const { t } = useLingui();
  const status = trpc.status.get.useQuery();
  const check = async () => {
    const r = await status.refetch();
    if (r.isError || !r.data) notifications.show({ color: 'red', message: t`Check update failed` });
    else notifications.show({ color: 'teal', message: t`Running version ${r.data.version}` });
  };
  return (
    <OptionsSection title={<Trans>Update check</Trans>} fields={fields} testId="section-update">
      {() => (
        <Group gap="sm">
          <Text size="sm" c="dimmed">
            <Trans>Current version: {status.data?.version ?? '-'}</Trans>
          </Text>
          <Button variant="default" size="compact-sm" loading={status.isFetching} onClick={() => void check()}>
            <Trans>Check for updates</Trans>
          </Button>
        </Group>
      )}
    </OptionsSection>
  );
}
