import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorMessage } from '../../lib/errors.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { getStoredUser } from '../../lib/user.ts';
import { fillChatLink, firstEnabledKey, pickChatLink } from '../../lib/chat-link.ts';
import { trpc } from '../../trpc.ts';

/** Spec §2.2: after "no enabled token available" the user goes to the token list. */
const TOKENS_REDIRECT_MS = 1500;

export type ChatLinkState =
  | { kind: 'loading' }
  | { kind: 'ready'; url: string; name: string }
  | { kind: 'error'; message: string }
  /** A visitor: the link needs one of their tokens, so they are asked to log in (issue 22). */
  | { kind: 'signed-out' };

/** Builds the chat link: the configured template, the server address and the first enabled token. */
export function useChatLink(index: number): ChatLinkState {
  const { t } = useLingui();
  const status = useStatus();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const [state, setState] = useState<ChatLinkState>({ kind: 'loading' });

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const pick = pickChatLink(status.chats, index);
    if (!pick.ok) {
      setState({ kind: 'error', message: t`chat link configuration error, contact the administrator` });
      return;
    }
    if (!getStoredUser()) {
      setState({ kind: 'signed-out' });
      return;
    }
    // The console's own token list (tRPC, full keys whatever REST contract the operator picked).
    utils.tokens.list
      .fetch({ page: 1, pageSize: 100 })
      .then(({ items: tokens }) => {
        if (cancelled) return;
        const key = firstEnabledKey(tokens);
        if (!key) {
          setState({ kind: 'error', message: t`no enabled token available` });
          timer = setTimeout(() => navigate('/app/tokens'), TOKENS_REDIRECT_MS);
          return;
        }
        const address = status.server_address || window.location.origin;
        setState({ kind: 'ready', name: pick.name, url: fillChatLink(pick.template, address, key) });
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        // The session ended since it was stored: the same sign-in prompt as for a visitor.
        if (!getStoredUser()) setState({ kind: 'signed-out' });
        else setState({ kind: 'error', message: errorMessage(err) || t`request failed` });
      });
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
  }, [index, status.chats, status.server_address, navigate, t, utils]);

  return state;
}
