import { Trans } from '@lingui/react/macro';
import { Alert, SimpleGrid, Stack } from '@mantine/core';
import { Page } from '../../components/Page.tsx';
import { PageLoader } from '../../layout/PageLoader.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { trpc } from '../../trpc.ts';
import { BindingsCard } from './BindingsCard.tsx';
import { InviteCard } from './InviteCard.tsx';
import { ModelsCard } from './ModelsCard.tsx';
import { PasskeyCard } from './PasskeyCard.tsx';
import { ProfileCard } from './ProfileCard.tsx';
import { SecurityCard } from './SecurityCard.tsx';
import { SettingsTabs } from './SettingsTabs.tsx';
import { TwoFactorCard } from './TwoFactorCard.tsx';
import { sideCards } from './sections.ts';

/** Personal settings (accounts spec §2): profile, models, invite, security, then settings tabs. */
export default function MePage() {
  const status = useStatus();
  const self = trpc.users.self.useQuery();
  if (self.isLoading) return <PageLoader />;
  if (!self.data) return <Alert color="red">{errorMessage(self.error)}</Alert>;
  const user = self.data;
  return (
    <Page title={<Trans>Personal settings</Trans>} maxWidth={1200}>
      <ProfileCard user={user} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Stack gap="md">
          <ModelsCard />
          {status.aff_enabled && <InviteCard user={user} />}
          {sideCards.map((c) => (!c.visible || c.visible(status)) && <c.component key={c.key} />)}
        </Stack>
        <Stack gap="md">
          <SecurityCard user={user} />
          <TwoFactorCard />
          <PasskeyCard />
          <BindingsCard user={user} />
        </Stack>
      </SimpleGrid>
      <SettingsTabs />
    </Page>
  );
}
