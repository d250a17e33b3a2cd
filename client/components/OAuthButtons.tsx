import { useLingui } from '@lingui/react/macro';
import { Button, Divider, SimpleGrid, Stack } from '@mantine/core';
import { IconBrandGithub, IconBrandWechat, IconKey, IconMessageCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { showError } from '../lib/errors.ts';
import { useStatus } from '../lib/status-context.tsx';
import type { Status } from '../lib/status.ts';
import { oauthUrl, type RedirectProvider } from '../lib/oauth.ts';
import { TelegramWidget } from './TelegramWidget.tsx';
import { WeChatLoginModal } from './WeChatLoginModal.tsx';

/** Whether the status enables any alternative sign-in (what OAuthButtons would show). */
export const anyOAuthEnabled = (status: Status) =>
  status.github_oauth || status.oidc_enabled || status.linuxdo_oauth || status.wechat_login || status.telegram_oauth;

/** Alternative sign-in buttons, each shown only when enabled in the status object. */
export function OAuthButtons({ aff }: { aff?: string }) {
  const { t } = useLingui();
  const status = useStatus();
  const [wechatOpen, setWechatOpen] = useState(false);
  const [pending, setPending] = useState<RedirectProvider | null>(null);

  const go = async (provider: RedirectProvider) => {
    setPending(provider);
    try {
      window.location.assign(await oauthUrl(provider, status, aff));
    } catch (e) {
      showError(e);
      setPending(null);
    }
  };

  const buttons = [
    status.github_oauth && { key: 'github', label: 'GitHub', icon: IconBrandGithub, onClick: () => go('github') },
    status.oidc_enabled && { key: 'oidc', label: 'OIDC', icon: IconKey, onClick: () => go('oidc') },
    status.linuxdo_oauth && { key: 'linuxdo', label: 'LinuxDO', icon: IconMessageCircle, onClick: () => go('linuxdo') },
    status.wechat_login && {
      key: 'wechat',
      label: t`WeChat`,
      icon: IconBrandWechat,
      onClick: () => setWechatOpen(true),
    },
  ].filter((b) => !!b);

  if (!anyOAuthEnabled(status)) return null;
  return (
    <Stack gap="sm" mt="md">
      <Divider label={t`or continue with`} labelPosition="center" />
      <SimpleGrid cols={buttons.length > 1 ? 2 : 1} spacing="xs">
        {buttons.map((b) => (
          <Button
            key={b.key}
            variant="default"
            leftSection={<b.icon size={16} />}
            loading={pending === b.key}
            onClick={() => void b.onClick()}
          >
            {b.label}
          </Button>
        ))}
      </SimpleGrid>
      <TelegramWidget mode="login" />
      {status.wechat_login && <WeChatLoginModal opened={wechatOpen} onClose={() => setWechatOpen(false)} aff={aff} />}
    </Stack>
  );
}
