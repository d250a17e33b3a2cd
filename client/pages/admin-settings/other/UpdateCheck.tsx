import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { RichContent } from '../../../components/RichContent.tsx';
import { showError } from '../../../lib/errors.ts';
import { useStatus } from '../../../lib/status-context.tsx';
import { trpc } from '../../../trpc.ts';
import type { FieldDef } from '../form/fields.ts';
import { OptionsSection } from '../form/OptionsSection.tsx';

const fields: FieldDef[] = [
  { key: 'UpdateCheckEnabled', kind: 'switch', label: msg`Tell administrators about new versions`, span: 12 },
];

/** The running version, and the newest release from the release feed (the server reads it). */
export function UpdateCheck() {
  const { t } = useLingui();
  const status = useStatus();
  const check = trpc.options.checkUpdate.useMutation({
    // The server's message says what failed ("Update checks are not set up on this install"); the detail says how to fix it.
    onError: showError,
  });
  const info = check.data;
  return (
    <OptionsSection title={<Trans>Update check</Trans>} fields={fields} testId="section-update">
      {() => (
        <Stack gap="sm">
          <Group gap="sm">
            <Text size="sm" c="dimmed">
              <Trans>Current version: {status.version || '-'}</Trans>
            </Text>
            <Button variant="default" size="compact-sm" loading={check.isPending} onClick={() => check.mutate()}>
              <Trans>Check for updates</Trans>
            </Button>
          </Group>
          {info && !info.newer && (
            <Alert color="teal" variant="light" data-testid="update-latest">
              <Trans>You are running the latest version ({info.latest}).</Trans>
            </Alert>
          )}
          {info?.newer && (
            <Alert color="blue" variant="light" data-testid="update-available" title={t`New version ${info.latest}`}>
              <Stack gap="xs">
                <Text size="sm">
                  <Trans>
                    Running {info.current}.{' '}
                    <Anchor href={info.url} target="_blank" rel="noreferrer">
                      Release page
                    </Anchor>
                  </Trans>
                </Text>
                {info.notes && (
                  <ScrollArea.Autosize mah={240}>
                    <RichContent content={info.notes} />
                  </ScrollArea.Autosize>
                )}
              </Stack>
            </Alert>
          )}
        </Stack>
      )}
    </OptionsSection>
  );
}
