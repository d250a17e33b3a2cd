import { defineConfig } from '@lingui/cli';

/** Source strings are English; Chinese is the default language of the console. */
export default defineConfig({
  sourceLocale: 'en',
  locales: ['zh', 'en'],
  fallbackLocales: { default: 'zh' },
  catalogs: [{ path: '<rootDir>/client/locales/{locale}/messages', include: ['client'] }],
});
