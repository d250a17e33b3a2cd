import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { ListTable } from '../../components/DataTable.tsx';
import { Page } from '../../components/Page.tsx';
import { renderQuota, renderUsd } from '../../lib/format.ts';
import { durationText, type PlanRow, resetText } from '../../lib/subscriptions.ts';
import { trpc } from '../../trpc.ts';
import { PlanDrawer } from './PlanDrawer.tsx';
import { PlanRowActions } from './PlanRowActions.tsx';

/**
 * /admin/subscriptions: the plans users can buy in their wallet (issue 32): price, length, quota per
 * period and how often it renews; create and edit in a drawer, put on or take off sale. A user's own
 * subscriptions are in the user drawer of /admin/users.
 */
export default function SubscriptionsPage() {
  const { t } = useLingui();
  const plans = trpc.subscriptionAdmin.plans.useQuery();
  const [drawer, setDrawer] = useState<{ editing?: PlanRow } | null>(null);

  return (
    <Page title={<Trans>Subscription plans</Trans>}>
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed" style={{ flex: '1 1 280px' }}>
          <Trans>
            Each plan gives its quota for every period; calls spend it before or after the wallet as each user chooses.
          </Trans>
        </Text>
        <Button onClick={() => setDrawer({})} data-testid="create-plan">
          <Trans>New plan</Trans>
        </Button>
      </Group>
      <ListTable<PlanRow>
        records={plans.data ?? []}
        fetching={plans.isFetching}
        noRecordsText={t`No plans yet`}
        rowStyle={(r) => (r.enabled ? undefined : { opacity: 0.55 })}
        pinLastColumn
        columns={[
          {
            accessor: 'id',
            title: 'ID',
            width: 70,
            visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
          },
          {
            accessor: 'title',
            title: t`Plan`,
            phone: 'title',
            render: (r) => (
              <Stack gap={0}>
                <Text size="sm" fw={500}>
                  {r.title}
                </Text>
                {r.subtitle && (
                  <Text size="xs" c="dimmed">
                    {r.subtitle}
                  </Text>
                )}
              </Stack>
            ),
          },
          {
            accessor: 'enabled',
            title: t`Status`,
            phone: 'badge',
            render: (r) => (
              <Badge variant="light" color={r.enabled ? 'green' : 'gray'}>
                {r.enabled ? t`On sale` : t`Off sale`}
              </Badge>
            ),
          },
          {
            accessor: 'price_amount',
            title: t`Price`,
            phone: 'field',
            noWrap: true,
            // Set in dollars, shown in the site's currency (¥ at USDExchangeRate …).
            render: (r) => renderUsd(r.price_amount),
          },
          { accessor: 'duration', title: t`Valid for`, phone: 'field', noWrap: true, render: (r) => durationText(r) },
          {
            accessor: 'total_amount',
            title: t`Quota per period`,
            phone: 'field',
            noWrap: true,
            // An unlimited plan stands out (issue 39): its buyers spend without limit for one price.
            render: (r) =>
              r.total_amount > 0 ? (
                renderQuota(r.total_amount)
              ) : (
                <Tooltip label={t`Buyers can spend without limit during each period`} withinPortal>
                  <Badge
                    variant="light"
                    color="orange"
                    leftSection={<IconAlertTriangle size={12} />}
                    data-testid="plan-unlimited-badge"
                  >
                    {t`Unlimited`}
                  </Badge>
                </Tooltip>
              ),
          },
          { accessor: 'reset', title: t`Quota renews`, phone: 'field', render: (r) => resetText(r) },
          {
            accessor: 'max_purchase_per_user',
            title: t`Purchase limit`,
            visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.lg})`,
            render: (r) => (r.max_purchase_per_user > 0 ? r.max_purchase_per_user : t`No limit`),
          },
          {
            accessor: 'upgrade_group',
            title: t`Upgrade group`,
            visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.lg})`,
            render: (r) => r.upgrade_group || '-',
          },
          {
            accessor: 'actions',
            title: t`Actions`,
            textAlign: 'right',
            width: 100,
            phone: 'actions',
            render: (r) => <PlanRowActions row={r} onEdit={(row) => setDrawer({ editing: row })} />,
          },
        ]}
      />
      <PlanDrawer opened={drawer !== null} editing={drawer?.editing} onClose={() => setDrawer(null)} />
    </Page>
  );
}
