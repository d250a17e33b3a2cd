import { i18n, type Messages } from '@lingui/core';

export const languages = { zh: '中文', en: 'English' } as const;
export type Language = keyof typeof languages;

const STORAGE_KEY = 'i18nextLng';

// One module per language holding all of its catalogs, merged (client/locales/zh.ts): one file to fetch.
const catalogs: Record<Language, () => Promise<{ messages: Messages }>> = {
  zh: () => import('./locales/zh.ts'),
  en: () => import('./locales/en.ts'),
};

export function storedLanguage(): Language {
  const v = localStorage.getItem(STORAGE_KEY);
  return v === 'en' || v === 'zh' ? v : 'zh';
}

export async function activateLanguage(lang: Language): Promise<void> {
  const { messages } = await catalogs[lang]();
  i18n.loadAndActivate({ locale: lang, messages });
  localStorage.setItem(STORAGE_KEY, lang);
  document.documentElement.lang = lang;
}

export { i18n };
