import { fillChatLink, pickChatLink } from '../chat/chat-link.ts';

export interface ChatEntry {
  index: number;
  name: string;
  template: string;
}

/** The configured chat links (status.chats), skipping malformed entries. */
export function chatEntries(chats: unknown): ChatEntry[] {
  const list: unknown[] = Array.isArray(chats) ? chats : [];
  const out: ChatEntry[] = [];
  list.forEach((_, index) => {
    const pick = pickChatLink(chats, index);
    if (pick.ok) out.push({ index, name: pick.name, template: pick.template });
  });
  return out;
}

/** Opens a chat client for this token: the template filled with the server address and the key. */
export function openChat(entry: ChatEntry, serverAddress: string, key: string) {
  const url = fillChatLink(entry.template, serverAddress || window.location.origin, key);
  window.open(url, '_blank', 'noopener');
}
