import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Kysely's statement builders (`db.selectFrom(...)`...): only repositories call them. */
const SQL_BUILDERS = ['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto'];

/**
 * A page folder is its route's own (CONTRIBUTING): a file in client/pages/<a>/ imports from client/components,
 * client/lib, client/*.ts and its own folder, never from client/pages/<b>/; components and lib, which pages
 * share, never reach into a page. What two pages use moves to client/components (React) or client/lib.
 */
const PAGES_DIR = path.join(import.meta.dirname, 'client', 'pages');
const pageFolderOf = (file) => {
  const rel = path.relative(PAGES_DIR, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? null : rel.split(path.sep)[0];
};
const pageImports = {
  meta: {
    type: 'problem',
    messages: {
      otherPage:
        '{{from}} imports from client/pages/{{to}}/: pages import only from client/components, client/lib and their own folder (move what both use there).',
    },
  },
  create(context) {
    const rel = path
      .relative(import.meta.dirname, context.filename)
      .split(path.sep)
      .join('/');
    const ownPage = pageFolderOf(context.filename);
    const from = ownPage === null ? rel.split('/').slice(0, 2).join('/') : `client/pages/${ownPage}/`;
    const check = (node) => {
      const spec = node.source?.type === 'Literal' ? node.source.value : null;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = pageFolderOf(path.resolve(path.dirname(context.filename), spec));
      if (to !== null && to !== ownPage)
        context.report({ node: node.source, messageId: 'otherPage', data: { from, to } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

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
    files: ['client/pages/**/*.{ts,tsx}', 'client/components/**/*.{ts,tsx}', 'client/lib/**/*.{ts,tsx}'],
    plugins: { switchyard: { rules: { 'page-imports': pageImports } } },
    rules: { 'switchyard/page-imports': 'error' },
  },
);
