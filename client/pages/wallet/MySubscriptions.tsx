import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Group, Progress, Select, Stack, Text } from '@mantine/core';
import type { BillingPreference } from '../../../shared/schemas/subscriptions.ts';
import { showError } from '../../lib/errors.ts';
import { formatTimestamp, renderQuota } from '../../lib/format.ts';
import { statusColor, statusText, type SubscriptionSummary } from '../../lib/subscriptions.ts';
import { trpc } from '../../trpc.ts';

/** One subscription: what is left of this period's quota, when the period renews and when the plan ends. */
function SubscriptionLine({ s }: { s: SubscriptionSummary }) {
  const { t } = useLingui();
  const sub = s.subscription;
  const unlimited = sub.amount_total === 0;
  const left = Math.max(0, sub.amount_total - sub.amount_used);
  const active = sub.status === 'active';
  return (
    <Stack gap={4} data-testid="my-subscription">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600}>
          {s.plan_title || t`Subscription #${sub.id}`}
        </Text>
        <Badge variant="light" color={statusColor(sub.status)}>
          {statusText(sub.status)}
        </Badge>
      </Group>
      {active && (
        <>
          <Text size="sm" data-testid="subscription-left">
            {unlimited
              ? t`Unlimited quota this period`
              : t`${renderQuota(left)} left of ${renderQuota(sub.amount_total)} this period`}
          </Text>
          {!unlimited && <Progress value={(left / sub.amount_total) * 100} size="sm" aria-label={t`Quota left`} />}
        </>
      )}
      <Text size="xs" c="dimmed">
        {active ? t`Ends ${formatTimestamp(sub.end_time)}` : t`Ended ${formatTimestamp(sub.end_time)}`}
        {active && sub.next_reset_time > 0 && ` · ${t`Renews ${formatTimestamp(sub.next_reset_time)}`}`}
      </Text>
    </Stack>
  );
}

/** The user's subscriptions and which pool their calls spend first (new-api's billing preference). */
export function MySubscriptions() {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const self = trpc.subscriptions.self.useQuery();
  const setPreference = trpc.subscriptions.setPreference.useMutation({
    onSuccess: () => void utils.subscriptions.self.invalidate(),
    onError: showError,
  });
  const data = self.data;
  if (!data || data.all_subscriptions.length === 0) return null;
  const hasActive = data.subscriptions.length > 0;
  const options: { value: BillingPreference; label: string }[] = [
    { value: 'subscription_first', label: t`Subscription first` },
    { value: 'wallet_first', label: t`Wallet first` },
    { value: 'subscription_only', label: t`Subscription only` },
    { value: 'wallet_only', label: t`Wallet only` },
  ];
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <Text fw={600}>
          <Trans>My subscriptions</Trans>
        </Text>
        <Select
          label={t`Calls are paid from`}
          size="xs"
          w={200}
          data={options}
          value={data.billing_preference}
          allowDeselect={false}
          onChange={(v) => v && setPreference.mutate({ billing_preference: v })}
          data-testid="billing-preference"
        />
      </Group>
      {!hasActive && (
        <Text size="xs" c="dimmed">
          <Trans>No subscription is active: calls are paid from the wallet.</Trans>
        </Text>
      )}
      {data.all_subscriptions.map((s) => (
        <SubscriptionLine key={s.subscription.id} s={s} />
      ))}
    </Stack>
  );
}
