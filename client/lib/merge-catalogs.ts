import type { Messages } from '@lingui/core';

/**
 * One language's message table from its catalogs (one per page folder, plus `common` and `server-messages`):
 * page catalogs first, the shell's `common` catalog last, so when two catalogs translate the same English text
 * differently the top bar and sidebar keep their own wording (client/locales/catalog-clashes.test.ts keeps such
 * clashes out). An entry one catalog has not translated yet never hides another catalog's translation.
 */
export function mergeCatalogs(modules: Record<string, { messages: Messages }>): Messages {
  const isCommon = (file: string) => file.endsWith('/common.po');
  const files = Object.keys(modules).sort();
  const ordered = [...files.filter((f) => !isCommon(f)), ...files.filter(isCommon)];
  const messages: Messages = {};
  for (const file of ordered)
    for (const [id, text] of Object.entries(modules[file].messages)) {
      const empty = text === '' || (Array.isArray(text) && text.length === 0);
      if (!empty || !(id in messages)) messages[id] = text;
    }
  return messages;
}
