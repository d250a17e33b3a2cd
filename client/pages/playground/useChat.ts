import { i18n } from '@lingui/core';
import { useRef, useState } from 'react';
import { getStoredUser } from '../../lib/user.ts';
import { errorText, readChatStream } from './chat-stream.ts';

/** Spec §4: loading, then incomplete while chunks arrive, then complete or error. */
export type MessageStatus = 'loading' | 'incomplete' | 'complete' | 'error';

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  reasoning?: string;
  status: MessageStatus;
}

export interface ChatSettings {
  group: string;
  model: string;
  /** 0 means unset: the upstream's default applies. */
  temperature: number;
  /** 0 means unset. */
  maxTokens: number;
  systemPrompt: string;
}

let seq = 0;
const newId = () => `m${Date.now()}-${++seq}`;

/** The playground conversation, streamed through POST /pg/chat/completions (the session pays). */
export function useChat() {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);

  const patch = (id: string, f: (m: ChatMessage) => ChatMessage) =>
    setMessages((list) => list.map((m) => (m.id === id ? f(m) : m)));

  async function send(text: string, s: ChatSettings) {
    const history = messages
      .filter((m) => m.content && m.status !== 'error')
      .map((m) => ({ role: m.role, content: m.content }));
    const user: ChatMessage = { id: newId(), role: 'user', content: text, status: 'complete' };
    const answer: ChatMessage = { id: newId(), role: 'assistant', content: '', status: 'loading' };
    setMessages((list) => [...list, user, answer]);
    setBusy(true);
    const controller = new AbortController();
    abort.current = controller;
    const body = {
      messages: [
        ...(s.systemPrompt.trim() ? [{ role: 'system', content: s.systemPrompt }] : []),
        ...history,
        { role: 'user', content: text },
      ],
      stream: true,
      model: s.model,
      group: s.group,
      ...(s.maxTokens > 0 ? { max_tokens: s.maxTokens } : {}),
      ...(s.temperature > 0 ? { temperature: s.temperature } : {}),
    };
    const fail = (message: string) =>
      patch(answer.id, (m) => ({ ...m, content: m.content ? `${m.content}\n\n${message}` : message, status: 'error' }));
    try {
      const res = await fetch('/pg/chat/completions', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'New-Api-User': String(getStoredUser()?.id ?? -1),
          // The relay words its refusals in the console's language, not the browser's (issue 22).
          'Accept-Language': i18n.locale === 'zh' ? 'zh-CN,zh;q=0.9' : 'en',
        },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      if (!res.ok || !res.body) {
        fail(await errorText(res));
        return;
      }
      const end = await readChatStream(res.body, {
        onDelta: (d) =>
          patch(answer.id, (m) => ({
            ...m,
            content: m.content + (d.content ?? ''),
            reasoning: d.reasoning ? (m.reasoning ?? '') + d.reasoning : m.reasoning,
            status: 'incomplete',
          })),
      });
      if (end.kind === 'error') fail(end.message);
      else patch(answer.id, (m) => ({ ...m, status: 'complete' }));
    } catch (err) {
      // Stop keeps what has arrived; anything else is a network error shown in the answer.
      if (controller.signal.aborted) patch(answer.id, (m) => ({ ...m, status: 'complete' }));
      else fail(err instanceof Error ? err.message : String(err));
    } finally {
      abort.current = null;
      setBusy(false);
    }
  }

  return {
    messages,
    busy,
    send,
    stop: () => abort.current?.abort(),
    clear: () => setMessages([]),
  };
}
