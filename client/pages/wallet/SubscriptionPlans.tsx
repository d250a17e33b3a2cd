import { Trans, useLingui } from '@lingui/react/macro';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/router.ts';
import { Button, Card, Divider, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconBrandAlipay, IconBrandWechat, IconWallet } from '@tabler/icons-react';
import { showError, showSuccess } from '../../lib/errors.ts';
import { renderQuota, renderUsd } from '../../lib/format.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { durationText, resetText } from '../../lib/subscriptions.ts';
import { trpc } from '../../trpc.ts';
import { MySubscriptions } from './MySubscriptions.tsx';
import { submitPayForm } from './pay-form.ts';

type Plan = inferRouterOutputs<AppRouter>['subscriptions']['plans'][number];

/**
 * The wallet's "Subscription plans" (issue 32): the user's subscriptions with what is left and when it
 * renews, and the plans on sale, bought through the site's Epay gateway or from the balance.
 */
export function SubscriptionPlans() {
  const { t } = useLingui();
  const status = useStatus();
  const utils = trpc.useUtils();
  const plans = trpc.subscriptions.plans.useQuery();
  const self = trpc.subscriptions.self.useQuery();
  const refresh = () => {
    void utils.subscriptions.self.invalidate();
    void utils.wallet.balance.invalidate();
  };
  const payEpay = trpc.subscriptions.payEpay.useMutation({
    onSuccess: (r) => submitPayForm(r.url, r.data),
    onError: showError,
  });
  const payBalance = trpc.subscriptions.payWithBalance.useMutation({
    onSuccess: () => {
      showSuccess(t`Subscribed`);
      refresh();
    },
    onError: showError,
  });

  const onSale = plans.data ?? [];
  if (onSale.length === 0 && (self.data?.all_subscriptions.length ?? 0) === 0) return null;

  const buy = (p: Plan) => {
    const id = modals.open({
      title: t`Buy ${p.title}`,
      centered: true,
      children: (
        <Stack gap="sm">
          <Text size="sm">
            {t`${renderUsd(p.price_amount)} for ${durationText(p)}`}
            {' · '}
            {p.total_amount > 0 ? t`${renderQuota(p.total_amount)} per period` : t`Unlimited quota`}
          </Text>
          <Button
            leftSection={<IconWallet size={16} />}
            variant="light"
            data-testid="pay-with-balance"
            onClick={() => {
              modals.close(id);
              payBalance.mutate({ id: p.id });
            }}
          >
            {t`Pay ${renderQuota(p.balance_quota)} from the balance`}
          </Button>
          {status.enable_online_topup && (
            <Group grow>
              <Button
                leftSection={<IconBrandAlipay size={16} />}
                variant="default"
                onClick={() => payEpay.mutate({ planId: p.id, method: 'alipay' })}
              >
                <Trans>Alipay</Trans>
              </Button>
              <Button
                leftSection={<IconBrandWechat size={16} />}
                variant="default"
                onClick={() => payEpay.mutate({ planId: p.id, method: 'wxpay' })}
              >
                <Trans>WeChat Pay</Trans>
              </Button>
            </Group>
          )}
        </Stack>
      ),
    });
  };

  return (
    <Card withBorder radius="md" padding="lg" data-testid="subscription-plans">
      <Stack gap="md">
        <Title order={4}>
          <Trans>Subscription plans</Trans>
        </Title>
        <MySubscriptions />
        {onSale.length > 0 && (self.data?.all_subscriptions.length ?? 0) > 0 && <Divider />}
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {onSale.map((p) => (
            <Card key={p.id} withBorder radius="md" padding="md" data-testid="plan-card">
              <Stack gap={6} h="100%">
                <Text fw={700}>{p.title}</Text>
                {p.subtitle && (
                  <Text size="xs" c="dimmed">
                    {p.subtitle}
                  </Text>
                )}
                <Text fz={24} fw={700}>
                  {renderUsd(p.price_amount)}
                </Text>
                <Text size="sm">{t`Valid for ${durationText(p)}`}</Text>
                <Text size="sm">
                  {p.total_amount > 0 ? t`${renderQuota(p.total_amount)} per period` : t`Unlimited quota`}
                </Text>
                <Text size="sm" c="dimmed">
                  {t`Quota renews: ${resetText(p)}`}
                </Text>
                {p.max_purchase_per_user > 0 && (
                  <Text size="xs" c="dimmed">
                    {t`At most ${p.max_purchase_per_user} per user`}
                  </Text>
                )}
                <Button mt="auto" onClick={() => buy(p)} loading={payBalance.isPending || payEpay.isPending}>
                  <Trans>Subscribe</Trans>
                </Button>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
