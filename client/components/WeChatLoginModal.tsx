import { useLingui } from '@lingui/react/macro';
import { Button, Image, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { showError, showSuccess } from '../lib/errors.ts';
import { rememberLogin } from '../lib/session.ts';
import { useStatus } from '../lib/status-context.tsx';
import type { StoredUser } from '../lib/user.ts';
import { restGet } from '../lib/rest.ts';

/**
 * The WeChat code dialog (sign-in and binding alike): scan the QR code, follow the
 * account, type the verification code it replies with. `onCode` does the rest and
 * throws to keep the dialog open with the error shown.
 */
export function WeChatCodeModal(p: {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  action: ReactNode;
  onCode: (code: string) => Promise<void>;
}) {
  const { t } = useLingui();
  const status = useStatus();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    try {
      await p.onCode(code.trim());
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={p.opened} onClose={p.onClose} title={p.title} centered>
      <Stack align="center">
        {status.wechat_qrcode && <Image src={status.wechat_qrcode} alt="" w={200} h={200} fit="contain" />}
        <Text size="sm" c="dimmed" ta="center">
          {t`Scan the QR code and follow the account, then send "验证码" to get a code (valid for 3 minutes).`}
        </Text>
        <TextInput
          w="100%"
          label={t`Verification code`}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
        />
        <Button fullWidth loading={busy} disabled={!code.trim()} onClick={() => void submit()}>
          {p.action}
        </Button>
      </Stack>
    </Modal>
  );
}

/** Messaging-app sign-in: scan the QR code, then type the verification code the account replies with. */
export function WeChatLoginModal({ opened, onClose, aff }: { opened: boolean; onClose: () => void; aff?: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  return (
    <WeChatCodeModal
      opened={opened}
      onClose={onClose}
      title={t`Sign in with WeChat`}
      action={t`Log in`}
      onCode={async (code) => {
        // A first WeChat sign-in creates the account, so the invite code goes along.
        const q = new URLSearchParams({ code, ...(aff ? { aff } : {}) });
        rememberLogin(await restGet<StoredUser>(`/api/oauth/wechat?${q.toString()}`));
        showSuccess(t`Login successful`);
        onClose();
        navigate('/app/tokens');
      }}
    />
  );
}
