import { Trans } from '@lingui/react/macro';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { Page } from '../../components/Page.tsx';
import { RichContent } from '../../components/RichContent.tsx';
import { PageLoader } from '../../layout/PageLoader.tsx';
import { contentKind } from '../../lib/sanitize.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { trpc } from '../../trpc.ts';

/** About: the operator's About content (markdown, HTML or a URL), else a short default. */
export default function AboutPage() {
  const status = useStatus();
  const content = trpc.status.content.useQuery(undefined, { staleTime: 60_000 });
  if (content.isLoading) return <PageLoader />;
  const about = content.data?.about ?? '';
  const version = status.version;
  const kind = contentKind(about);
  if (kind === 'url') return <RichContent content={about} title="about" />;
  if (kind !== 'empty')
    return (
      <Page maxWidth={900}>
        <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="lg">
          <RichContent content={about} />
        </Paper>
      </Page>
    );
  return (
    <Page title={<Trans>About</Trans>} maxWidth={900}>
      <Paper withBorder p="xl" radius="lg">
        <Stack gap="xs">
          <Title order={4}>{status.system_name || 'Switchyard'}</Title>
          <Text c="dimmed">
            <Trans>
              The administrator has not written an About page yet. It can be set in System settings, as markdown, HTML
              or a link to show in a frame.
            </Trans>
          </Text>
          {version && (
            <Text size="sm" c="dimmed">
              <Trans>Version {version}</Trans>
            </Text>
          )}
        </Stack>
      </Paper>
    </Page>
  );
}
