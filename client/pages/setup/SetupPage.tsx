import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Group } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { AuthCard } from '../../components/AuthCard.tsx';
import { PageLoader } from '../../layout/PageLoader.tsx';
import { errorMessage, showError } from '../../lib/errors.ts';
import { rememberLogin } from '../../lib/session.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { trpc } from '../../trpc.ts';
import { SetupCodeField } from './SetupCodeField.tsx';
import { SetupForm, type SetupValues } from './SetupForm.tsx';

const RELOAD_DELAY_MS = 1500;
/** Where the new root lands, signed in: a gateway's first task is a channel. */
const FIRST_PAGE = '/admin/channels';

/** First-run wizard (spec console-screens §2.10): admin account and usage mode. */
export default function SetupPage() {
  const { t, i18n } = useLingui();
  const status = useStatus();
  // Its failure has a fixed message (console spec §8), shown in the page.
  const setupStatus = trpc.auth.setupStatus.useQuery(undefined, { meta: { ownErrorDisplay: true } });
  const [done, setDone] = useState<'signed-in' | 'reload' | false>(false);
  // Asked when this browser is not on the server (issue 39): the code printed in the server log.
  const [setupCode, setSetupCode] = useState('');
  // Unticked "Keep the preset prices": cleared as the new root, right after setup (issue 39).
  const keepPresets = useRef(true);
  const clearPresets = trpc.pricing.clearPresets.useMutation();
  const setup = trpc.auth.setup.useMutation({
    onSuccess: async ({ user }) => {
      // The server signed in the root it created (issue 22); an imported root signs in as before.
      if (user) rememberLogin(user);
      if (user && !keepPresets.current)
        await clearPresets
          .mutateAsync()
          .catch(() => showError(t`Preset prices were not cleared; clear them in System settings › Model pricing`));
      setDone(user ? 'signed-in' : 'reload');
      // A full load: the status (setup done) and the session are read afresh.
      window.setTimeout(() => {
        if (user) window.location.assign(FIRST_PAGE);
        else window.location.reload();
      }, RELOAD_DELAY_MS);
    },
    onError: (e) => showError(t`System initialisation failed, please retry: ${errorMessage(e)}`),
  });

  if (setupStatus.isError) return <Alert color="red">{t`Failed to get the initialisation status`}</Alert>;
  if (setupStatus.isLoading || !setupStatus.data) return <PageLoader />;
  if ((status.setup || setupStatus.data.status) && !done) return <Navigate to="/" replace />;

  const rootInit = setupStatus.data.root_init;
  const refusal = setup.error?.data?.messageCode;
  const codeError =
    refusal === 'setup.code_required' || refusal === 'setup.code_wrong' ? errorMessage(setup.error) : undefined;
  const submit = (v: SetupValues) => {
    keepPresets.current = v.keepPresets;
    setup.mutate({
      ...(rootInit ? {} : { username: v.username, password: v.password, confirmPassword: v.confirmPassword }),
      SelfUseModeEnabled: v.mode === 'self',
      DemoSiteEnabled: v.mode === 'demo',
      // Option defaults that ship text (group descriptions) are written in the wizard's language.
      language: i18n.locale === 'en' ? 'en' : 'zh',
      ...(setupStatus.data?.setup_code_required ? { setup_code: setupCode } : {}),
    });
  };

  return (
    <AuthCard
      width={560}
      title={<Trans>Set up Switchyard</Trans>}
      subtitle={<Trans>Create the administrator account and choose how this gateway will be used.</Trans>}
      footer={
        setupStatus.data.database_type && (
          <Group gap={6} justify="center">
            <Trans>Database</Trans>
            <Badge variant="light" color="gray">
              {setupStatus.data.database_type}
            </Badge>
          </Group>
        )
      }
    >
      {done ? (
        <Alert color="teal" icon={<IconCircleCheck size={18} />} title={t`System initialised`}>
          {done === 'signed-in' ? (
            <Trans>Setup is complete. You are signed in as the administrator; the console opens in a moment.</Trans>
          ) : (
            <Trans>Setup is complete. The page reloads in a moment.</Trans>
          )}
        </Alert>
      ) : (
        <>
          {setupStatus.data.setup_code_required && (
            <SetupCodeField value={setupCode} onChange={setSetupCode} error={codeError} />
          )}
          <SetupForm askAdmin={!rootInit} submitting={setup.isPending} onSubmit={submit} />
        </>
      )}
    </AuthCard>
  );
}
