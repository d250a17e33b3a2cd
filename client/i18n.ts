import { i18n } from '@lingui/core';

export const languages = { zh: '中文', en: 'English' } as const;
export type Language = keyof typeof languages;

const STORAGE_KEY = 'i18nextLng';

export function storedLanguage(): Language {
  const v = localStorage.getItem(STORAGE_KEY);
  return v === 'en' || v === 'zh' ? v : 'zh';
}

/** Loads a catalog on demand; Chinese is the default. */
export async function activateLanguage(lang: Language): Promise<void> {
  const { messages } =
    lang === 'en' ? await import('./locales/en/messages.po') : await import('./locales/zh/messages.po');
  i18n.loadAndActivate({ locale: lang, messages });
  localStorage.setItem(STORAGE_KEY, lang);
  document.documentElement.lang = lang;
}

export { i18n };
