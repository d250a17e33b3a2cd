import { useLingui } from '@lingui/react/macro';
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFingerprint } from '@tabler/icons-react';
import { useState } from 'react';
import { showFailure } from '../../lib/errors.ts';
import { getPasskey, isPasskeyCancel, passkeysSupported } from '../../lib/passkey.ts';
import type { StoredUser } from '../../lib/user.ts';
import { trpc } from '../../trpc.ts';

/**
 * "Sign in with a passkey" (issue 32): no username, the browser offers the passkeys it holds for this site.
 * Shown when the site allows passkey sign-in and the browser can do WebAuthn.
 */
export function PasskeyButton({ onSignedIn }: { onSignedIn: (user: StoredUser) => void }) {
  const { t } = useLingui();
  const begin = trpc.passkeys.loginBegin.useMutation();
  const finish = trpc.passkeys.loginFinish.useMutation();
  const [busy, setBusy] = useState(false);
  if (!passkeysSupported()) return null;

  const signIn = async () => {
    setBusy(true);
    try {
      const credential = await getPasskey(await begin.mutateAsync());
      onSignedIn(await finish.mutateAsync(credential));
    } catch (err) {
      if (isPasskeyCancel(err)) notifications.show({ color: 'gray', message: t`Passkey sign-in was cancelled` });
      else showFailure(t`Passkey sign-in failed`, err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button
      variant="default"
      fullWidth
      leftSection={<IconFingerprint size={18} />}
      loading={busy}
      onClick={() => void signIn()}
      data-testid="passkey-sign-in"
    >
      {t`Sign in with a passkey`}
    </Button>
  );
}
