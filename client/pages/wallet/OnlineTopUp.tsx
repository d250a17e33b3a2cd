import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Card, Chip, Group, NumberInput, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconBrandAlipay, IconBrandWechat, IconCreditCard } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { PaymentMethod } from '../../../shared/schemas/wallet.ts';
import { useQuotaDisplay } from '../../components/QuotaInput.tsx';
import { errorMessage, showError } from '../../lib/errors.ts';
import { currencySymbol, formatCount, formatQuota, quotaCounterpart } from '../../lib/format.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { trpc } from '../../trpc.ts';
import { submitPayForm } from './pay-form.ts';

const PRESET_DOLLARS = [10, 20, 50, 100, 200, 500];

/** Online top-up: pick an amount, see the price, choose Alipay or WeChat Pay, confirm, go to the gateway. */
export function OnlineTopUp() {
  const { t } = useLingui();
  const status = useStatus();
  // Amounts are dollars when the site shows money, quota units otherwise (as the server reads them).
  const unit = status.display_in_currency ? 1 : status.quota_per_unit;
  const display = useQuotaDisplay();
  const minAmount = Math.max(1, status.min_topup * unit);
  const presets = PRESET_DOLLARS.map((d) => d * unit).filter((a) => a >= minAmount);
  const [amount, setAmount] = useState<number>(presets[0] ?? minAmount);
  const [debounced] = useDebouncedValue(amount, 300);
  const [price, setPrice] = useState<string | null>(null);
  const quote = trpc.wallet.amount.useMutation();
  const pay = trpc.wallet.pay.useMutation({
    onSuccess: (r) => submitPayForm(r.url, r.data),
    onError: (err) => notifications.show({ color: 'red', message: t`Payment request failed: ${errorMessage(err)}` }),
  });

  const tooLow = amount < minAmount;
  const creditShown = formatQuota(amount * display.quotaPerUnit, display);
  const creditCount = quotaCounterpart(amount * display.quotaPerUnit, display);
  const { mutate: fetchQuote } = quote;
  useEffect(() => {
    if (!status.enable_online_topup || debounced < minAmount) return setPrice(null);
    fetchQuote(
      { amount: debounced },
      {
        onSuccess: (r) => setPrice(r.price),
        onError: (err) => {
          // The spec: on failure the price is cleared and the reason shown.
          setPrice(null);
          showError(err);
        },
      },
    );
  }, [debounced, minAmount, status.enable_online_topup, fetchQuote]);

  if (!status.enable_online_topup)
    return (
      <Card withBorder radius="md" padding="lg" h="100%">
        <Stack gap="sm">
          <Header />
          <Alert color="yellow" variant="light" data-testid="topup-disabled">
            <Trans>The administrator has not enabled online top-up</Trans>
          </Alert>
        </Stack>
      </Card>
    );

  const methodName = (m: PaymentMethod) => (m === 'zfb' ? t`Alipay` : t`WeChat Pay`);
  const choose = (method: PaymentMethod) => {
    if (tooLow) return notifications.show({ color: 'red', message: t`Top-up amount cannot be less than ${minAmount}` });
    if (price === null) return;
    modals.openConfirmModal({
      title: t`Confirm top-up`,
      children: (
        <Stack gap={4}>
          <Text size="sm">{t`Amount: ${amount}`}</Text>
          <Text size="sm">{t`Price: ¥${price}`}</Text>
          <Text size="sm">{t`Payment method: ${methodName(method)}`}</Text>
        </Stack>
      ),
      labels: { confirm: t`Pay`, cancel: t`Cancel` },
      onConfirm: () => pay.mutate({ amount, payment_method: method }),
    });
  };

  return (
    <Card withBorder radius="md" padding="lg" h="100%">
      <Stack gap="sm">
        <Header />
        <NumberInput
          label={t`Amount`}
          min={1}
          allowDecimal={false}
          allowNegative={false}
          value={amount}
          error={tooLow ? t`Top-up amount cannot be less than ${minAmount}` : undefined}
          data-testid="topup-amount"
          prefix={status.display_in_currency ? '$' : undefined}
          thousandSeparator=","
          onChange={(v) => setAmount(Math.max(1, Math.floor(Number(v) || 1)))}
        />
        <Text size="xs" c="dimmed" mt={-8} data-testid="topup-amount-counterpart">
          {!status.display_in_currency
            ? `= ${quotaCounterpart(amount, display)}`
            : currencySymbol(display) === '$'
              ? t`= ${quotaCounterpart(amount * display.quotaPerUnit, display)} quota`
              : // Bought in dollars of quota, shown in the site's currency: "$10" adds ¥73.00 to the balance.
                t`Adds ${creditShown} to the balance (${creditCount} quota)`}
        </Text>
        {presets.length > 0 && (
          <Chip.Group value={String(amount)} onChange={(v) => setAmount(Number(v))}>
            <Group gap={6}>
              {presets.map((p) => (
                <Chip key={p} value={String(p)} size="xs" variant="light">
                  {status.display_in_currency ? `$${formatCount(p)}` : formatQuota(p, display, 0)}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        )}
        <Text size="sm">
          <Trans>Payable:</Trans>{' '}
          <Text span fw={700} data-testid="topup-price">
            {price === null ? '-' : `¥${price}`}
          </Text>
        </Text>
        <Group gap="xs" grow>
          <Button
            leftSection={<IconBrandAlipay size={18} />}
            color="blue"
            variant="light"
            disabled={price === null}
            loading={pay.isPending && pay.variables?.payment_method === 'zfb'}
            onClick={() => choose('zfb')}
            data-testid="pay-zfb"
          >
            <Trans>Alipay</Trans>
          </Button>
          <Button
            leftSection={<IconBrandWechat size={18} />}
            color="green"
            variant="light"
            disabled={price === null}
            loading={pay.isPending && pay.variables?.payment_method === 'wx'}
            onClick={() => choose('wx')}
          >
            <Trans>WeChat Pay</Trans>
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function Header() {
  return (
    <Group gap="xs">
      <IconCreditCard size={20} />
      <Title order={4}>
        <Trans>Online top-up</Trans>
      </Title>
    </Group>
  );
}
