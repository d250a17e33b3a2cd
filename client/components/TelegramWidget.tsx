import { useLingui } from '@lingui/react/macro';
import { Box } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { restGet } from '../lib/rest.ts';
import { showError, showSuccess } from '../lib/errors.ts';
import { rememberLogin } from '../lib/session.ts';
import { useStatus } from '../lib/status-context.tsx';
import type { StoredUser } from '../lib/user.ts';

declare global {
  interface Window {
    onTelegramAuth?: (user: Record<string, string | number>) => void;
  }
}

/**
 * Telegram's login widget (its own script draws the button). Login: the
 * widget hands the signed fields to the page, which asks the server. Bind: the
 * widget sends the browser to the bind route, which redirects back to /app/me.
 */
export function TelegramWidget({ mode }: { mode: 'login' | 'bind' }) {
  const { t } = useLingui();
  const status = useStatus();
  const navigate = useNavigate();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!status.telegram_oauth || !el) return;
    const script = document.createElement('script');
    script.src = 'https://telegram.org/js/telegram-widget.js?22';
    script.async = true;
    script.setAttribute('data-telegram-login', status.telegram_bot_name);
    script.setAttribute('data-size', 'medium');
    script.setAttribute('data-request-access', 'write');
    if (mode === 'bind') {
      script.setAttribute('data-auth-url', `${window.location.origin}/api/oauth/telegram/bind`);
    } else {
      window.onTelegramAuth = (user) => {
        const q = new URLSearchParams(Object.entries(user).map(([k, v]) => [k, String(v)]));
        restGet<StoredUser>(`/api/oauth/telegram/login?${q.toString()}`)
          .then((u) => {
            rememberLogin(u);
            showSuccess(t`Login successful`);
            navigate('/app/tokens');
          })
          .catch(showError);
      };
      script.setAttribute('data-onauth', 'onTelegramAuth(user)');
    }
    el.appendChild(script);
    return () => {
      el.innerHTML = '';
    };
  }, [status.telegram_oauth, status.telegram_bot_name, mode, navigate, t]);

  if (!status.telegram_oauth) return null;
  return <Box ref={box} data-testid={`telegram-${mode}`} style={{ display: 'flex', justifyContent: 'center' }} />;
}
