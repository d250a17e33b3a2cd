import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { FormFooter } from '../../../components/FormFooter.tsx';
import { QuotaInput } from '../../../components/QuotaInput.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { renderQuota } from '../../../lib/format.ts';
import { trpc } from '../../../trpc.ts';

/** "Transfer to balance": moves invite rewards into the usable quota, at least one unit ($1). */
export function AffTransfer() {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const info = trpc.affiliate.info.useQuery();
  const [opened, setOpened] = useState(false);
  const [amount, setAmount] = useState<number | string>(0);
  const transfer = trpc.affiliate.transfer.useMutation({
    onSuccess: () => {
      notifications.show({ color: 'teal', message: t`Transferred` });
      setOpened(false);
      void utils.affiliate.info.invalidate();
      void utils.users.self.invalidate();
    },
    onError: (e) => notifications.show({ color: 'red', message: errorMessage(e) }),
  });
  const min = info.data?.min_transfer ?? 0;
  const available = info.data?.aff_quota ?? 0;
  const value = Number(amount) || 0;
  const error =
    value < min
      ? t`The minimum transfer is ${renderQuota(min)}`
      : value > available
        ? t`More than your invite quota`
        : null;

  return (
    <>
      <Button
        variant="light"
        size="xs"
        disabled={!info.data || available < min}
        onClick={() => {
          setAmount(available);
          setOpened(true);
        }}
      >
        <Trans>Transfer to balance</Trans>
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t`Transfer invite quota to balance`}>
        <Stack>
          <Text size="sm">
            <Trans>Available: {renderQuota(available)}</Trans>
          </Text>
          <QuotaInput
            label={t`Quota to transfer`}
            description={t`Minimum ${renderQuota(min)}`}
            value={amount}
            onChange={setAmount}
            min={min}
            max={available}
            error={error}
            data-testid="aff-transfer-quota"
          />
          <FormFooter
            onCancel={() => setOpened(false)}
            label={<Trans>Transfer</Trans>}
            onConfirm={() => transfer.mutate({ quota: value })}
            loading={transfer.isPending}
            disabled={error !== null}
          />
        </Stack>
      </Modal>
    </>
  );
}
