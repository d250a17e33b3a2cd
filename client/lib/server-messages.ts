import { i18n, type MessageDescriptor } from '@lingui/core';
import { generateMessageId } from '@lingui/message-utils/generateMessageId';
import {
  matchServerText,
  type MessageParams,
  type ServerMessage,
  type ServerMessageCode,
} from '../../shared/server-messages.ts';
import { serverMessagesEn } from '../../shared/server-messages-en.ts';
import { paramsAsText, type StoredMessage, type StoredNotice } from '../../shared/stored-message.ts';
import { formatQuota, type QuotaDisplay, quotaDisplay } from './format.ts';

/*
 * The server's messages in the console's language (issue 22). The server sends a refusal as a code
 * with parameters (shared/server-messages.ts; tRPC's error `data.messageCode` / `data.messageParams`),
 * or, on the few REST calls the console makes, as new-api's Chinese text, which is recognised by its
 * wording. Its own catalog, `server-messages.po`: English the server's own English table, Chinese the
 * registry's texts (a unit test keeps both complete). The code is each entry's context, so an English
 * text that a page also uses keeps its own Chinese there.
 *
 * The English is written once, in shared/server-messages-en/<area>.ts (the server answers API callers
 * who prefer English with it too). Each descriptor here is what Lingui's msg() macro would make of it:
 * the id is Lingui's hash of the English and its context (the code), so the compiled catalog finds it;
 * `lingui extract` reads that folder through scripts/lingui-server-messages-extractor.ts.
 */
const descriptors = Object.fromEntries(
  Object.entries(serverMessagesEn).map(([code, message]) => [
    code,
    { id: generateMessageId(message, code), message } satisfies MessageDescriptor,
  ]),
) as Record<ServerMessageCode, MessageDescriptor>;

/** Parameters that are themselves server texts (a field name, "1000 点额度") are translated too. */
function translateParam(value: string | number, depth: number): string | number {
  if (typeof value !== 'string' || depth > 2) return value;
  const inner = matchServerText(value);
  return inner ? translate(inner, depth + 1) : value;
}

function translate(m: ServerMessage, depth: number): string {
  const values = Object.fromEntries(Object.entries(m.params).map(([k, v]) => [k, translateParam(v, depth)]));
  // A variable, not an object literal in the call: Lingui's extractor reads `i18n._({...})` as a message.
  const descriptor: MessageDescriptor = { ...descriptors[m.code], values };
  return i18n._(descriptor);
}

/** A server message in the active language. */
export const serverMessageText = (code: ServerMessageCode, params: MessageParams = {}): string =>
  translate({ code, params }, 0);

/**
 * A message the server stored beside its prose (a log row's `other.message`, a notice's): in the active
 * language, amounts of quota through the console's money formatter (the operator's display mode).
 */
export const storedMessageInLanguage = (m: StoredMessage, display: QuotaDisplay = quotaDisplay()): string =>
  serverMessageText(
    m.code,
    paramsAsText(m.params, (quota) => formatQuota(quota, display)),
  );

/** A message's own text, unless it is a server notice (old rows, written before notices were stored). */
function noticeTextInLanguage(text: string): string {
  const m = matchServerText(text);
  return m?.code.startsWith('notice.') ? translate(m, 0) : text;
}

/**
 * An inbox message's title and content in the console's language when the server wrote it (a
 * notice: its stored messages); an administrator's message is shown as written.
 */
export function noticeInLanguage(m: { title: string; content: string; notice?: StoredNotice | null }): {
  title: string;
  content: string;
} {
  if (m.notice)
    return { title: storedMessageInLanguage(m.notice.title), content: storedMessageInLanguage(m.notice.content) };
  return { title: noticeTextInLanguage(m.title), content: noticeTextInLanguage(m.content) };
}

/** A text the server sent (a REST message, a stored log line): translated when it is one of its messages. */
export function serverTextInLanguage(text: string): string {
  const m = matchServerText(text);
  return m ? translate(m, 0) : text;
}

/** The codes the console can translate (for tests). */
export const translatedCodes = Object.keys(descriptors) as ServerMessageCode[];
