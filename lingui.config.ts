import { defineConfig } from '@lingui/cli';
import babel from '@lingui/cli/api/extractors/babel';
import { serverMessagesExtractor } from './scripts/lingui-server-messages-extractor.ts';

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
    // The server's messages, by code: one catalog for every area's English (shared/server-messages-en/<area>.ts,
    // which the server answers English-speaking API callers with too); its Chinese is shared/server-messages/<area>.ts.
    {
      path: '<rootDir>/client/locales/{locale}/server-messages',
      include: ['<rootDir>/shared/server-messages-en/', '<rootDir>/client/lib/server-messages.ts'],
    },
    {
      path: '<rootDir>/client/locales/{locale}/common',
      include: ['<rootDir>/client/'],
      exclude: [
        '<rootDir>/client/pages/**',
        '<rootDir>/client/locales/**',
        '<rootDir>/client/**/*.test.ts',
        '<rootDir>/client/lib/server-messages.ts',
      ],
    },
  ],
  // The server messages' English is plain strings by code (no macro): its own extractor reads them.
  extractors: [serverMessagesExtractor, babel],
});
