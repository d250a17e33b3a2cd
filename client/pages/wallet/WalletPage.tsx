import { Trans } from '@lingui/react/macro';
import { SimpleGrid } from '@mantine/core';
import { Page } from '../../components/Page.tsx';
import { BalanceCard } from './BalanceCard.tsx';
import { OnlineTopUp } from './OnlineTopUp.tsx';
import { RedeemCard } from './RedeemCard.tsx';
import { SubscriptionPlans } from './SubscriptionPlans.tsx';
import { TopUpHistory } from './TopUpHistory.tsx';

/** /app/wallet: balance, redeem a code, online top-up, subscription plans and the user's top-up orders. */
export default function WalletPage() {
  return (
    <Page title={<Trans>Wallet</Trans>}>
      <BalanceCard />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <RedeemCard />
        <OnlineTopUp />
      </SimpleGrid>
      <SubscriptionPlans />
      <TopUpHistory />
    </Page>
  );
}
