/*
 * Chat-link templates (spec §2.2): the saved `chats` array maps a name to a URL
 * template with {address} and {key}. No macros here: vitest imports it.
 */

export type ChatLinks = Record<string, string>[];

export type LinkPick = { ok: true; name: string; template: string } | { ok: false };

/** The saved list: the status carries an array; a JSON text of one is accepted too. */
function chatList(chats: unknown): unknown[] | null {
  let list = chats;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      return null;
    }
  }
  return Array.isArray(list) ? list : null;
}

function entryOf(entry: unknown): LinkPick {
  if (typeof entry !== 'object' || entry === null) return { ok: false };
  const [pair] = Object.entries(entry as Record<string, unknown>);
  if (!pair || typeof pair[1] !== 'string' || !pair[1]) return { ok: false };
  return { ok: true, name: pair[0], template: pair[1] };
}

/** The index-th link; anything that is not an array of {name: template} objects is a configuration error. */
export function pickChatLink(chats: unknown, index: number): LinkPick {
  const list = chatList(chats);
  return list ? entryOf(list[index]) : { ok: false };
}

export interface ChatLinkEntry {
  index: number;
  name: string;
  template: string;
}

/**
 * Every usable link with its index in the saved list (the index /chat/{id} and /app/chat/{id}
 * take); malformed entries are skipped, so the indices may have gaps.
 */
export function listChatLinks(chats: unknown): ChatLinkEntry[] {
  return (chatList(chats) ?? []).flatMap((entry, index) => {
    const pick = entryOf(entry);
    return pick.ok ? [{ index, name: pick.name, template: pick.template }] : [];
  });
}

/** Fills the template; values are URL-encoded so a key or address cannot break the link. */
export function fillChatLink(template: string, address: string, key: string): string {
  return template.replaceAll('{address}', encodeURIComponent(address)).replaceAll('{key}', encodeURIComponent(key));
}

interface TokenRow {
  key: string;
  status: number;
}

/** The first enabled token's key, shown and sent with the sk- prefix. */
export function firstEnabledKey(tokens: TokenRow[] | null | undefined): string | null {
  const t = (tokens ?? []).find((x) => x.status === 1);
  return t ? `sk-${t.key}` : null;
}
