import { useLingui } from '@lingui/react/macro';
import { Button, Image, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { showError, showSuccess } from '../lib/errors.ts';
import { rememberLogin } from '../lib/session.ts';
import { useStatus } from '../lib/status-context.tsx';
import type { StoredUser } from '../lib/user.ts';
import { restGet } from './oauth.ts';

/** Messaging-app sign-in: scan the QR code, then type the verification code the account replies with. */
export function WeChatLoginModal({ opened, onClose, aff }: { opened: boolean; onClose: () => void; aff?: string }) {
  const { t } = useLingui();
  const status = useStatus();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    try {
      // A first WeChat sign-in creates the account, so the invite code goes along.
      const q = new URLSearchParams({ code: code.trim(), ...(aff ? { aff } : {}) });
      rememberLogin(await restGet<StoredUser>(`/api/oauth/wechat?${q.toString()}`));
      showSuccess(t`Login successful`);
      onClose();
      navigate('/app/tokens');
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t`Sign in with WeChat`} centered>
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
          {t`Log in`}
        </Button>
      </Stack>
    </Modal>
  );
}
