import { useLingui } from '@lingui/react/macro';
import { Box, Group, Loader, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useStatus } from '../lib/status-context.tsx';

interface TurnstileApi {
  render(el: HTMLElement, opts: Record<string, unknown>): string;
  remove(id: string): void;
}
declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

const SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
let loading: Promise<TurnstileApi> | undefined;

/** Loads Cloudflare's widget script once per page load. */
function loadTurnstile(): Promise<TurnstileApi> {
  loading ??= new Promise((resolve, reject) => {
    const el = document.createElement('script');
    el.src = SCRIPT;
    el.async = true;
    el.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error('turnstile')));
    el.onerror = () => {
      loading = undefined;
      reject(new Error('turnstile'));
    };
    document.head.appendChild(el);
  });
  return loading;
}

/**
 * Human verification (Turnstile) for the sign-in forms. `ready` is true when
 * the check is off or a token has arrived; forms refuse to submit before that.
 */
export function useTurnstile() {
  const status = useStatus();
  const [token, setToken] = useState('');
  const enabled = status.turnstile_check;
  return { enabled, token, ready: !enabled || token !== '', setToken, siteKey: status.turnstile_site_key };
}

export function TurnstileWidget({ state }: { state: ReturnType<typeof useTurnstile> }) {
  const { t } = useLingui();
  const box = useRef<HTMLDivElement>(null);
  const { enabled, siteKey, setToken } = state;
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!enabled || !box.current) return;
    let id: string | undefined;
    let cancelled = false;
    const theme = document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark' ? 'dark' : 'light';
    loadTurnstile()
      .then((api) => {
        if (cancelled || !box.current) return;
        id = api.render(box.current, {
          sitekey: siteKey,
          theme,
          callback: (value: string) => setToken(value),
          'expired-callback': () => setToken(''),
        });
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      if (id) window.turnstile?.remove(id);
    };
  }, [enabled, siteKey, setToken]);

  if (!enabled) return null;
  return (
    <Box data-testid="turnstile">
      <div ref={box} />
      {!state.token && (
        <Group gap="xs" mt={4}>
          {!failed && <Loader size="xs" />}
          <Text size="xs" c={failed ? 'red' : 'dimmed'}>
            {failed
              ? t`Human verification could not load. Check your network and refresh.`
              : t`Please wait a moment, human verification is in progress...`}
          </Text>
        </Group>
      )}
    </Box>
  );
}
