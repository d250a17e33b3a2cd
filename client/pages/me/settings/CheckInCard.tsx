import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCalendarCheck } from '@tabler/icons-react';
import { errorMessage } from '../../../lib/errors.ts';
import { renderCents } from '../../../lib/format.ts';
import { trpc } from '../../../trpc.ts';

/** Daily check-in: one random reward per calendar day. */
export function CheckInCard() {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const status = trpc.checkIn.status.useQuery();
  const checkIn = trpc.checkIn.checkIn.useMutation({
    onSuccess: (d) => {
      // At whole cents or fen, as balances read (issue 45: not "$0.01497"); the exact amount is in the log.
      notifications.show({ color: 'teal', message: t`Checked in: you got ${renderCents(d.quota, 'round')}` });
      void utils.checkIn.status.invalidate();
      void utils.users.self.invalidate();
    },
    onError: (e) =>
      notifications.show({ color: 'red', message: errorMessage(e) || t`Check-in failed, please try again later` }),
  });
  const can = status.data?.can_check_in ?? false;
  return (
    <Paper withBorder radius="lg" p="lg" data-testid="checkin-card">
      <Stack gap="sm">
        <Group gap="xs">
          <IconCalendarCheck size={18} />
          <Text fw={600}>{t`Daily check-in`}</Text>
        </Group>
        {status.isLoading ? (
          <Skeleton h={36} />
        ) : (
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm" c="dimmed">
              {can ? (
                <Trans>Check in once a day for a random reward.</Trans>
              ) : (
                <Trans>Checked in today. Come back tomorrow.</Trans>
              )}
            </Text>
            <Button onClick={() => checkIn.mutate()} loading={checkIn.isPending} disabled={!can}>
              {can ? <Trans>Check in</Trans> : <Trans context="check-in">Done</Trans>}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
