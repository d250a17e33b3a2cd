import { type ChatLinkEntry, fillChatLink } from '../../lib/chat-link.ts';

/** Opens a chat client for this token: the template filled with the server address and the key. */
export function openChat(entry: ChatLinkEntry, serverAddress: string, key: string) {
  const url = fillChatLink(entry.template, serverAddress || window.location.origin, key);
  window.open(url, '_blank', 'noopener');
}
