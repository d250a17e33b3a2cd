import { i18n, type Messages } from '@lingui/core';

export const languages = { zh: '中文', en: 'English' } as const;
export type Language = keyof typeof languages;

const STORAGE_KEY = 'i18nextLng';

// Every page folder has its own catalog; all of a language's catalogs are merged on activation.
const catalogs = {
  zh: import.meta.glob<{ messages: Messages }>('./locales/zh/*.po'),
  en: import.meta.glob<{ messages: Messages }>('./locales/en/*.po'),
};

export function storedLanguage(): Language {
  const v = localStorage.getItem(STORAGE_KEY);
  return v === 'en' || v === 'zh' ? v : 'zh';
}

/**
 * Page catalogs first, the shell's `common` catalog last: when two catalogs translate the
 * same English text differently, the top bar and sidebar keep their own wording.
 */
function loadOrder(lang: Language) {
  const entries = Object.entries(catalogs[lang]);
  const isCommon = (file: string) => file.endsWith('/common.po');
  return [...entries.filter(([f]) => !isCommon(f)), ...entries.filter(([f]) => isCommon(f))];
}

export async function activateLanguage(lang: Language): Promise<void> {
  const loaded = await Promise.all(loadOrder(lang).map(([, load]) => load()));
  const messages: Messages = {};
  for (const catalog of loaded)
    for (const [id, text] of Object.entries(catalog.messages)) {
      // An entry one catalog has not translated yet must not hide another catalog's translation.
      const empty = text === '' || (Array.isArray(text) && text.length === 0);
      if (!empty || !(id in messages)) messages[id] = text;
    }
  i18n.loadAndActivate({ locale: lang, messages });
  localStorage.setItem(STORAGE_KEY, lang);
  document.documentElement.lang = lang;
}

export { i18n };
