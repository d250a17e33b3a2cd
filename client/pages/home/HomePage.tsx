import { Alert, Box } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import { Page } from '../../components/Page.tsx';
import { RichContent } from '../../components/RichContent.tsx';
import { PageLoader } from '../../layout/PageLoader.tsx';
import { contentKind } from '../../lib/sanitize.ts';
import { trpc } from '../../trpc.ts';
import { Hero } from './Hero.tsx';

/** Home: the notice, then the operator's home content (markdown, HTML or a URL), else the default hero. */
export default function HomePage() {
  const content = trpc.status.content.useQuery(undefined, { staleTime: 60_000 });
  if (content.isLoading) return <PageLoader />;
  const notice = content.data?.notice ?? '';
  const home = content.data?.homePageContent ?? '';
  const kind = contentKind(home);
  return (
    <>
      {notice.trim() && (
        <Box px={{ base: 'sm', sm: 'lg' }} pt="md" maw={1100} mx="auto">
          <Alert icon={<IconSpeakerphone size={18} />} variant="light" color="indigo" data-testid="notice">
            <RichContent content={notice} />
          </Alert>
        </Box>
      )}
      {kind === 'empty' ? (
        <Hero />
      ) : kind === 'url' ? (
        <RichContent content={home} />
      ) : (
        <Page maxWidth={1100}>
          <RichContent content={home} />
        </Page>
      )}
    </>
  );
}
