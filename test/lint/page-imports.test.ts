import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * "A page imports only from client/components, client/lib and its own folder" (CONTRIBUTING) is enforced
 * by the lint: `npx eslint` fails on a file in client/pages/<a>/ that imports from client/pages/<b>/, and on
 * shared code (components, lib) that reaches into a page, so a build that adds such an import fails.
 */
const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });
const RULE = 'switchyard/page-imports';

async function pageImportErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

const importing = (spec: string) => `import { thing } from '${spec}';\nexport const used = thing;\n`;

describe('the lint rule "pages import no other page"', () => {
  it('fails a page that imports from another page, at any depth and in any import form', async () => {
    expect(await pageImportErrors('client/pages/login/LoginPage.tsx', importing('../oauth/Turnstile.tsx'))).toEqual([
      'client/pages/login/ imports from client/pages/oauth/: pages import only from client/components, client/lib and their own folder (move what both use there).',
    ]);
    const cases: [file: string, code: string][] = [
      ['client/pages/admin-settings/tabs/SystemTab.tsx', importing('../../tokens/form.ts')],
      ['client/pages/me/settings/CheckInCard.tsx', importing('../../wallet/RedeemCard.tsx')],
      ['client/pages/tokens/RowActions.tsx', importing('../../pages/chat/nav.ts')],
      ['client/pages/tokens/index.ts', "export { ChatPage } from '../chat/ChatPage.tsx';\n"],
      ['client/pages/tokens/all.ts', "export * from '../chat/nav.ts';\n"],
      ['client/pages/tokens/lazy.ts', "export const load = () => import('../chat/ChatPage.tsx');\n"],
    ];
    for (const [file, code] of cases) expect(await pageImportErrors(file, code), file).toHaveLength(1);
  });

  it('fails shared code that reaches into a page', async () => {
    for (const file of ['client/components/OAuthButtons.tsx', 'client/lib/oauth.ts'])
      expect(await pageImportErrors(file, importing('../pages/oauth/TelegramWidget.tsx')), file).toHaveLength(1);
  });

  it('lets a page import components, lib, the client modules, shared code, packages and its own folder', async () => {
    const cases: [file: string, spec: string][] = [
      ['client/pages/login/LoginPage.tsx', '../../components/Turnstile.tsx'],
      ['client/pages/login/LoginPage.tsx', '../../lib/rest.ts'],
      ['client/pages/login/LoginPage.tsx', '../../trpc.ts'],
      ['client/pages/me/settings/PreferenceSettings.tsx', '../../../../shared/schemas/user-setting.ts'],
      ['client/pages/login/LoginPage.tsx', '@mantine/core'],
      ['client/pages/tokens/RowActions.tsx', './chat-links.ts'],
      ['client/pages/admin-settings/tabs/SystemTab.tsx', '../form/OptionsSection.tsx'],
      ['client/pages/me/sections.ts', './settings/CheckInCard.tsx'],
      ['client/pages/me/settings/AffTransfer.tsx', '../InviteCard.tsx'],
      ['client/components/OAuthButtons.tsx', './TelegramWidget.tsx'],
    ];
    for (const [file, spec] of cases)
      expect(await pageImportErrors(file, importing(spec)), `${file} <- ${spec}`).toEqual([]);
  });

  it('finds no page importing another page in the console today', async () => {
    // Only this rule: the whole lint of the console is `npx eslint`'s job.
    const onlyThisRule = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === RULE });
    const results = await onlyThisRule.lintFiles(['client/pages', 'client/components', 'client/lib']);
    const found = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === RULE).map((m) => `${path.relative(root, r.filePath)}: ${m.message}`),
    );
    expect(found).toEqual([]);
  });
});
