import { Trans, useLingui } from '@lingui/react/macro';
import { Center, Loader, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { restCall } from '../../lib/rest.ts';
import { errorMessage, showError, showSuccess } from '../../lib/errors.ts';
import { safeReturnTo } from '../../lib/navigation.ts';
import { rememberLogin } from '../../lib/session.ts';
import { getStoredUser, type StoredUser, userIsAdmin } from '../../lib/user.ts';

const PROVIDERS = new Set(['github', 'oidc', 'linuxdo']);
const FAILURE_DELAY_MS = 2000;

/** /oauth/:provider — where GitHub, OIDC and Linux.do send the browser back (console-screens §2.11). */
export default function OAuthCallbackPage() {
  const { t } = useLingui();
  const { provider = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  // A code is good once: React's development double effects must not send it twice.
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const fail = (e: unknown) => {
      showError(e);
      setFailed(true);
      // Admins usually land here while testing sign-in settings; others go back to the login page.
      const next = userIsAdmin(getStoredUser()) ? '/admin/settings' : '/login';
      window.setTimeout(() => navigate(next, { replace: true }), FAILURE_DELAY_MS);
    };
    if (!PROVIDERS.has(provider)) return fail(new Error(t`Unknown sign-in provider`));
    const error = params.get('error');
    const q = new URLSearchParams();
    for (const key of ['code', 'state', 'iss', 'error', 'error_description']) {
      const v = params.get(key);
      if (v) q.set(key, v);
    }
    if (error && !params.get('code')) return fail(new Error(params.get('error_description') || error));
    restCall<StoredUser>(`/api/oauth/${provider}?${q.toString()}`)
      .then((body) => {
        if (body.message === 'bind') {
          showSuccess(t`Bound successfully`);
          navigate('/app/me', { replace: true });
          return;
        }
        rememberLogin(body.data);
        showSuccess(t`Login successful`);
        navigate(safeReturnTo(params.get('returnTo')), { replace: true });
      })
      .catch((e: unknown) => fail(new Error(errorMessage(e))));
  }, [provider, params, navigate, t]);

  return (
    <Center mih="60vh" p="md">
      <Paper withBorder radius="lg" p="xl" maw={420} w="100%">
        <Stack align="center" gap="sm">
          {!failed && <Loader />}
          <Text ta="center" data-testid="oauth-status">
            {failed ? <Trans>Operation failed, redirecting...</Trans> : <Trans>Signing you in, please wait...</Trans>}
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
