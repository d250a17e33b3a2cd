import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Kysely's statement builders (`db.selectFrom(...)`...): only repositories call them. */
const SQL_BUILDERS = ['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto'];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', 'client/locales/', 'test-artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 'off',
    },
  },
  // SQL lives in repositories (CONTRIBUTING): a query written anywhere else in the server fails the build.
  {
    files: ['server/**/*.ts'],
    ignores: [
      'server/**/*.repo.ts',
      'server/db/**',
      'server/**/*.test.ts',
      'server/**/tests/**',
      'server/**/*.fixtures.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression[callee.property.name=/^(${SQL_BUILDERS.join('|')})$/]`,
          message: 'SQL belongs in a repository (*.repo.ts): call a repository function from here.',
        },
        {
          selector: "TaggedTemplateExpression[tag.name='sql'], TaggedTemplateExpression[tag.object.name='sql']",
          message: 'SQL belongs in a repository (*.repo.ts): call a repository function from here.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'kysely', importNames: ['sql'], message: 'Raw SQL belongs in a repository (*.repo.ts).' }],
        },
      ],
    },
  },
  {
    // Known exceptions, each with its reason; remove a line once its SQL moved to a repository.
    files: [
      // Copies a whole new-api database table by table, dialect by dialect: a migration tool, not a query.
      'server/domains/importer/import-database.ts',
    ],
    rules: { 'no-restricted-syntax': 'off', 'no-restricted-imports': 'off' },
  },
);
