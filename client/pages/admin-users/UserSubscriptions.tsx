import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Badge, Button, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconBan, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { showError, showSuccess } from '../../lib/errors.ts';
import { formatTimestamp, renderQuota } from '../../lib/format.ts';
import { statusColor, statusText } from '../../lib/subscriptions.ts';
import { trpc } from '../../trpc.ts';

/**
 * A user's subscriptions in the admin's user drawer (new-api's UserSubscriptionsModal): each with what
 * is left this period; give a plan without payment, end one now, or delete its record.
 */
export function UserSubscriptions({ userId }: { userId: number }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const [planId, setPlanId] = useState<string | null>(null);
  const subs = trpc.subscriptionAdmin.userSubscriptions.useQuery({ userId });
  const plans = trpc.subscriptionAdmin.plans.useQuery();
  const refresh = () => void utils.subscriptionAdmin.userSubscriptions.invalidate({ userId });
  const done = (message: string) => () => {
    showSuccess(message);
    refresh();
  };
  const grant = trpc.subscriptionAdmin.grant.useMutation({ onSuccess: done(t`Plan given`), onError: showError });
  const invalidate = trpc.subscriptionAdmin.invalidate.useMutation({
    onSuccess: done(t`Subscription ended`),
    onError: showError,
  });
  const remove = trpc.subscriptionAdmin.remove.useMutation({
    onSuccess: done(t`Subscription deleted`),
    onError: showError,
  });
  const confirm = (title: string, body: string, run: () => void) =>
    modals.openConfirmModal({
      title,
      centered: true,
      children: <Text size="sm">{body}</Text>,
      labels: { confirm: t`Confirm`, cancel: t`Cancel` },
      confirmProps: { color: 'red' },
      onConfirm: run,
    });

  return (
    <Stack gap="xs" data-testid="user-subscriptions">
      {(subs.data ?? []).length === 0 && (
        <Text size="xs" c="dimmed">
          {t`No subscriptions`}
        </Text>
      )}
      {(subs.data ?? []).map(({ subscription: s, plan_title }) => (
        <Group key={s.id} justify="space-between" wrap="nowrap" gap="xs">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Group gap={6} wrap="nowrap">
              <Text size="sm" fw={500} truncate>
                {plan_title || `#${s.id}`}
              </Text>
              <Badge size="xs" variant="light" color={statusColor(s.status)}>
                {statusText(s.status)}
              </Badge>
            </Group>
            <Text size="xs" c="dimmed">
              {s.amount_total > 0
                ? t`${renderQuota(Math.max(0, s.amount_total - s.amount_used))} left of ${renderQuota(s.amount_total)}`
                : t`Unlimited quota`}
              {' · '}
              {t`until ${formatTimestamp(s.end_time)}`}
            </Text>
          </Stack>
          <Group gap={4} wrap="nowrap">
            {s.status === 'active' && (
              <Tooltip label={t`End now`} withinPortal>
                <ActionIcon
                  variant="light"
                  color="orange"
                  aria-label={t`End now`}
                  onClick={() =>
                    confirm(t`End this subscription now?`, t`Its unused quota lapses.`, () =>
                      invalidate.mutate({ id: s.id }),
                    )
                  }
                >
                  <IconBan size={14} />
                </ActionIcon>
              </Tooltip>
            )}
            <Tooltip label={t`Delete`} withinPortal>
              <ActionIcon
                variant="light"
                color="red"
                aria-label={t`Delete`}
                onClick={() =>
                  confirm(t`Delete this subscription?`, t`Its record is removed. This cannot be undone.`, () =>
                    remove.mutate({ id: s.id }),
                  )
                }
              >
                <IconTrash size={14} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
      ))}
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <Select
          style={{ flex: 1 }}
          size="xs"
          label={t`Give a plan`}
          placeholder={t`Choose a plan`}
          data={(plans.data ?? []).map((p) => ({ value: String(p.id), label: p.title }))}
          value={planId}
          onChange={setPlanId}
          data-testid="grant-plan"
        />
        <Button
          size="xs"
          disabled={!planId}
          loading={grant.isPending}
          onClick={() => planId && grant.mutate({ userId, planId: Number(planId) })}
        >
          {t`Give`}
        </Button>
      </Group>
    </Stack>
  );
}
