import { defineConfig } from '@lingui/cli';

/**
 * Source strings are English; Chinese is the console's default language.
 * One catalog per page folder (client/locales/{locale}/{page}.po) plus one for the
 * shell and shared components, so pages are translated independently.
 */
export default defineConfig({
  sourceLocale: 'en',
  locales: ['zh', 'en'],
  fallbackLocales: { default: 'zh' },
  catalogs: [
    { path: '<rootDir>/client/locales/{locale}/{name}', include: ['<rootDir>/client/pages/{name}/'] },
    // The server's messages, by code: one catalog for every area's English (client/lib/server-messages/<area>.ts,
    // joined by client/lib/server-messages.ts); its Chinese is shared/server-messages/<area>.ts.
    {
      path: '<rootDir>/client/locales/{locale}/server-messages',
      include: ['<rootDir>/client/lib/server-messages/', '<rootDir>/client/lib/server-messages.ts'],
    },
    {
      path: '<rootDir>/client/locales/{locale}/common',
      include: ['<rootDir>/client/'],
      exclude: [
        '<rootDir>/client/pages/**',
        '<rootDir>/client/locales/**',
        '<rootDir>/client/**/*.test.ts',
        '<rootDir>/client/lib/server-messages.ts',
        '<rootDir>/client/lib/server-messages/**',
      ],
    },
  ],
});
