import { type ChatLinkEntry, fillChatLink, listChatLinks } from '../chat/chat-link.ts';

export type ChatEntry = ChatLinkEntry;

/** The configured chat links (status.chats), skipping malformed entries. */
export const chatEntries = listChatLinks;

/** Opens a chat client for this token: the template filled with the server address and the key. */
export function openChat(entry: ChatEntry, serverAddress: string, key: string) {
  const url = fillChatLink(entry.template, serverAddress || window.location.origin, key);
  window.open(url, '_blank', 'noopener');
}
