import { useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  IconBrandGithub,
  IconBrandTelegram,
  IconBrandWechat,
  IconKey,
  IconMail,
  IconMessageCircle,
} from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { oauthUrl, type RedirectProvider } from '../../lib/oauth.ts';
import { restGet } from '../../lib/rest.ts';
import { showError, showSuccess } from '../../lib/errors.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { trpc } from '../../trpc.ts';
import { TelegramWidget } from '../../components/TelegramWidget.tsx';
import { TurnstileWidget, useTurnstile } from '../../components/Turnstile.tsx';
import { EmailCodeFields } from '../../components/EmailCodeFields.tsx';
import type { SelfUser } from './types.ts';
import { WeChatCodeModal } from '../../components/WeChatLoginModal.tsx';

function BindingRow(props: { icon: ReactNode; name: string; value: string; action?: ReactNode; testId: string }) {
  const { t } = useLingui();
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" data-testid={props.testId}>
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        {props.icon}
        <div style={{ minWidth: 0 }}>
          <Text size="sm" fw={500}>
            {props.name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {props.value || t`Not bound`}
          </Text>
        </div>
      </Group>
      <div style={{ flexShrink: 0 }}>{props.action ?? (props.value && <Badge variant="light">{t`Bound`}</Badge>)}</div>
    </Group>
  );
}

function EmailBindModal({ opened, onClose, onDone }: { opened: boolean; onClose: () => void; onDone: () => void }) {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  // Sending the code is a mail like any other: with human verification on it needs a token
  // (a session signed in through a third party has no remembered check).
  const human = useTurnstile();
  const form = useForm({
    initialValues: { email: '', verification_code: '' },
    validate: {
      email: (v) => (v.trim() ? null : t`Please enter your e-mail`),
      verification_code: (v) => (v.trim() ? null : t`Please enter the e-mail verification code`),
    },
  });
  const submit = async (v: { email: string; verification_code: string }) => {
    setBusy(true);
    try {
      const q = new URLSearchParams({ email: v.email.trim(), code: v.verification_code.trim() });
      await restGet(`/api/oauth/email/bind?${q.toString()}`);
      showSuccess(t`E-mail bound`);
      onDone();
      onClose();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t`Bind e-mail`} centered>
      <form onSubmit={form.onSubmit((v) => void submit(v))} noValidate>
        <Stack gap="md">
          <EmailCodeFields form={form} turnstile={human.token} />
          <TurnstileWidget state={human} />
          <Button type="submit" loading={busy}>{t`Bind`}</Button>
        </Stack>
      </form>
    </Modal>
  );
}

function WeChatBindModal({ opened, onClose, onDone }: { opened: boolean; onClose: () => void; onDone: () => void }) {
  const { t } = useLingui();
  return (
    <WeChatCodeModal
      opened={opened}
      onClose={onClose}
      title={t`Bind WeChat`}
      action={t`Bind`}
      onCode={async (code) => {
        await restGet(`/api/oauth/wechat/bind?code=${encodeURIComponent(code)}`);
        showSuccess(t`WeChat bound`);
        onDone();
        onClose();
      }}
    />
  );
}

/** Personal settings: the sign-in accounts bound to this user (ids are read-only; binding goes through each provider). */
export function BindingsCard({ user }: { user: SelfUser }) {
  const { t } = useLingui();
  const status = useStatus();
  const utils = trpc.useUtils();
  const [modal, setModal] = useState<'email' | 'wechat' | null>(null);
  const [pending, setPending] = useState<RedirectProvider | null>(null);
  const refresh = () => void utils.users.self.invalidate();

  const redirect = async (provider: RedirectProvider) => {
    setPending(provider);
    try {
      window.location.assign(await oauthUrl(provider, status));
    } catch (e) {
      showError(e);
      setPending(null);
    }
  };
  const bindButton = (onClick: () => void, loading = false) => (
    <Button size="xs" variant="light" loading={loading} onClick={onClick}>
      {t`Bind`}
    </Button>
  );
  const providers: { key: RedirectProvider; on: boolean; name: string; value: string; icon: ReactNode }[] = [
    {
      key: 'github',
      on: status.github_oauth,
      name: 'GitHub',
      value: user.github_id,
      icon: <IconBrandGithub size={20} />,
    },
    { key: 'oidc', on: status.oidc_enabled, name: 'OIDC', value: user.oidc_id, icon: <IconKey size={20} /> },
    {
      key: 'linuxdo',
      on: status.linuxdo_oauth,
      name: 'LinuxDO',
      value: user.linux_do_id,
      icon: <IconMessageCircle size={20} />,
    },
  ];

  return (
    <Paper withBorder radius="lg" p="lg">
      <Stack gap="md">
        <Text fw={600}>{t`Account bindings`}</Text>
        <BindingRow
          testId="bind-email"
          icon={<IconMail size={20} />}
          name={t`E-mail`}
          value={user.email}
          action={
            <Button size="xs" variant="light" onClick={() => setModal('email')}>
              {user.email ? t`Change` : t`Bind`}
            </Button>
          }
        />
        {status.wechat_login && (
          <BindingRow
            testId="bind-wechat"
            icon={<IconBrandWechat size={20} />}
            name={t`WeChat`}
            value={user.wechat_id}
            action={user.wechat_id ? undefined : bindButton(() => setModal('wechat'))}
          />
        )}
        {providers
          .filter((p) => p.on)
          .map((p) => (
            <BindingRow
              key={p.key}
              testId={`bind-${p.key}`}
              icon={p.icon}
              name={p.name}
              value={p.value}
              action={p.value ? undefined : bindButton(() => void redirect(p.key), pending === p.key)}
            />
          ))}
        {status.telegram_oauth && (
          <BindingRow
            testId="bind-telegram"
            icon={<IconBrandTelegram size={20} />}
            name="Telegram"
            value={user.telegram_id}
            action={user.telegram_id ? undefined : <TelegramWidget mode="bind" />}
          />
        )}
      </Stack>
      <EmailBindModal opened={modal === 'email'} onClose={() => setModal(null)} onDone={refresh} />
      {status.wechat_login && (
        <WeChatBindModal opened={modal === 'wechat'} onClose={() => setModal(null)} onDone={refresh} />
      )}
    </Paper>
  );
}
