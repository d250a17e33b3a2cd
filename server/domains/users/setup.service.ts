import { Role } from '../../../shared/constants.ts';
import { type InstallLanguage, localizedDefaults, type OptionKey, optionRegistry } from '../../../shared/options.ts';
import { type SetupInput, setupInput } from '../../../shared/schemas/users.ts';
import { badRequest, forbidden } from '../../errors.ts';
import { callerLanguage } from '../../caller-language.ts';
import { insertAccount } from './account.service.ts';
import { isSetupCode, setupCodeOf } from './setup-code.rules.ts';
import { hasSetupRow, insertSetupRow, rootExists } from './users.repo.ts';
import { assertPassword, assertUsername, type UsersDeps } from './users.rules.ts';

const ROOT_INITIAL_QUOTA = 100_000_000;

/** The install language a browser asks for: Chinese (new-api's) unless it prefers English. */
const installLanguageOf = (acceptLanguage: string | undefined): InstallLanguage => callerLanguage(acceptLanguage);

/** Root's display name in the install's language (new-api's "Root User" on an English install). */
const ROOT_DISPLAY_NAME: Record<InstallLanguage, string> = { zh: '超级管理员', en: 'Root User' };

/** Who submits the wizard, as the transport sees it. */
export interface SetupCaller {
  /** The request's Accept-Language, which names the install language when the input does not. */
  acceptLanguage?: string;
  /** On the server itself (setup-code.rules.ts isLoopbackCaller): no setup code asked. */
  loopback: boolean;
}

/** First-run wizard: creates root (unless an imported database has one) and records that setup is done. */
export function createSetupService(d: UsersDeps) {
  const setupCode = setupCodeOf(d.config.sessionSecret);
  return {
    /** `loopback`: whether the caller is on the server itself; otherwise the wizard needs the setup code. */
    async setupStatus(loopback: boolean) {
      // new-api reports only `status` once done; the other two are meaningful before setup only.
      if (await d.status.isSetupDone())
        return { status: true, root_init: false, database_type: '', setup_code_required: false };
      return {
        status: false,
        root_init: await rootExists(d.db, Role.Root),
        database_type: d.dbType,
        // Ours: the console then shows a field for the code printed in the server log.
        setup_code_required: !loopback,
      };
    },

    /** The code the server log shows at start while setup is not done (undefined once it is). */
    async pendingSetupCode(): Promise<string | undefined> {
      return (await d.status.isSetupDone()) ? undefined : setupCode;
    },

    /** Returns the id of the root account this call created (none when an imported root existed). */
    async setup(raw: SetupInput, caller: SetupCaller): Promise<{ rootId: number | undefined }> {
      const input = setupInput.parse(raw);
      const language = input.language ?? installLanguageOf(caller.acceptLanguage);
      if (await d.status.isSetupDone()) throw badRequest('setup.done');
      if (!caller.loopback) {
        if (!input.setup_code) throw forbidden('setup.code_required');
        if (!isSetupCode(setupCode, input.setup_code)) throw forbidden('setup.code_wrong');
      }
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
            displayName: ROOT_DISPLAY_NAME[language],
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
