import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconExternalLink, IconTicket } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { showError, showSuccess } from '../../lib/errors.ts';
import { renderQuota } from '../../lib/format.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { trpc } from '../../trpc.ts';

/** Redeem a code (prefilled from ?code=), or go to the operator's top-up link to buy one when there is one. */
export function RedeemCard() {
  const { t } = useLingui();
  const status = useStatus();
  const utils = trpc.useUtils();
  const [params] = useSearchParams();
  const [code, setCode] = useState(() => params.get('code') ?? '');
  const [error, setError] = useState<string | null>(null);
  const redeem = trpc.wallet.redeem.useMutation({
    onSuccess: (r) => {
      showSuccess(t`Redeemed successfully, ${renderQuota(r.quota)} added`);
      setCode('');
      void utils.wallet.invalidate();
    },
    onError: showError,
  });

  // Only a web address becomes a link (an option typed as "javascript:…" must not).
  const topUpLink = /^https?:\/\//i.test(status.top_up_link ?? '') ? status.top_up_link : '';
  const submit = () => {
    if (!code.trim()) return setError(t`Please enter the redemption code`);
    redeem.mutate({ key: code.trim() });
  };

  return (
    <Card withBorder radius="md" padding="lg" h="100%">
      <Stack gap="sm">
        <Group gap="xs">
          <IconTicket size={20} />
          <Title order={4}>
            <Trans>Redeem a code</Trans>
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          <Trans>Enter a redemption code to add its quota to your balance.</Trans>
        </Text>
        <TextInput
          placeholder={t`Redemption code`}
          value={code}
          error={error}
          data-testid="redeem-code"
          onChange={(e) => {
            setCode(e.currentTarget.value);
            setError(null);
          }}
          onKeyDown={(e) => e.key === 'Enter' && submit()}
        />
        <Group gap="xs" grow>
          <Button onClick={submit} loading={redeem.isPending} data-testid="redeem-submit">
            <Trans>Redeem</Trans>
          </Button>
          {/* Offered only when the operator set where to buy one (issue 31: it used to answer a red toast). */}
          {topUpLink && (
            <Button
              component="a"
              href={topUpLink}
              target="_blank"
              rel="noopener noreferrer"
              variant="light"
              rightSection={<IconExternalLink size={16} />}
              data-testid="buy-code"
            >
              <Trans>Buy a code</Trans>
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
