import { Role } from '../../../shared/constants.ts';
import { type InstallLanguage, localizedDefaults, type OptionKey, optionRegistry } from '../../../shared/options.ts';
import { type SetupInput, setupInput } from '../../../shared/schemas/users.ts';
import { badRequest } from '../../errors.ts';
import { prefersChinese } from '../../relay/errors.ts';
import { insertAccount } from './account.service.ts';
import { hasSetupRow, insertSetupRow, rootExists } from './users.repo.ts';
import { assertPassword, assertUsername, type UsersDeps } from './users.rules.ts';

const ROOT_INITIAL_QUOTA = 100_000_000;

/** The install language a browser asks for: Chinese when it prefers it or says nothing (new-api's), else English. */
const installLanguageOf = (acceptLanguage: string | undefined): InstallLanguage =>
  !acceptLanguage || prefersChinese(acceptLanguage) ? 'zh' : 'en';

/** First-run wizard: creates root (unless an imported database has one) and records that setup is done. */
export function createSetupService(d: UsersDeps) {
  return {
    async setupStatus() {
      // new-api reports only `status` once done; the other two are meaningful before setup only.
      if (await d.status.isSetupDone()) return { status: true, root_init: false, database_type: '' };
      return { status: false, root_init: await rootExists(d.db, Role.Root), database_type: d.dbType };
    },

    /** Returns the id of the root account this call created (none when an imported root existed). */
    /** `acceptLanguage`: the request's header, which names the install language when the input does not. */
    async setup(raw: SetupInput, acceptLanguage?: string): Promise<{ rootId: number | undefined }> {
      const input = setupInput.parse(raw);
      const language = input.language ?? installLanguageOf(acceptLanguage);
      if (await d.status.isSetupDone()) throw badRequest('setup.done');
      const needRoot = !(await rootExists(d.db, Role.Root));
      let passwordHash = '';
      const username = input.username?.trim() ?? '';
      if (needRoot) {
        assertUsername(username);
        const password = input.password ?? '';
        if (password !== (input.confirmPassword ?? '')) throw badRequest('register.passwords_differ');
        assertPassword(password);
        passwordHash = await d.passwords.hash(password);
      }
      let rootId: number | undefined;
      await d.db.transaction().execute(async (tx) => {
        // Re-checked inside the transaction: two browsers may submit the wizard at once.
        if (await hasSetupRow(tx)) throw badRequest('setup.done');
        if (needRoot && !(await rootExists(tx, Role.Root)))
          rootId = await insertAccount(tx, {
            username,
            passwordHash,
            displayName: 'Root User',
            role: Role.Root,
            quota: ROOT_INITIAL_QUOTA,
          });
        await insertSetupRow(tx, d.config.version);
      });
      if (language !== 'zh')
        for (const [key, value] of Object.entries(localizedDefaults[language]) as [OptionKey, string][])
          // Only over the shipped default: an imported database's own words stay.
          if (d.options.getRaw(key) === optionRegistry[key].default) await d.options.update(key, value);
      await d.options.update('SelfUseModeEnabled', String(input.SelfUseModeEnabled));
      await d.options.update('DemoSiteEnabled', String(input.DemoSiteEnabled));
      d.status.markSetupDone();
      return { rootId };
    },
  };
}
