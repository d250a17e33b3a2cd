import { UserStatus } from '../../../../shared/constants.ts';
import { AppError, badRequest, conflict, tooManyRequests } from '../../../errors.ts';
import { hashPassword } from '../password.service.ts';
import { randomAlphanumeric } from '../../../random.ts';
import { createSignedUpAccount } from '../signup.service.ts';
import { emailTaken, findLiveUserById, usernameTaken } from '../../users/users.repo.ts';
import { loginUserView, type LoginUserView } from '../../users/users.view.ts';
import { githubProfile } from './providers/github.client.ts';
import { linuxdoProfile } from './providers/linuxdo.client.ts';
import { oidcProfile } from './providers/oidc.client.ts';
import type { ProviderProfile } from './providers/profile.client.ts';
import { telegramProfile } from './providers/telegram.rules.ts';
import { wechatProfile } from './providers/wechat.client.ts';
import type { AuthDeps } from '../auth.deps.ts';
import { findUserByProviderId, maxUserId, type ProviderColumn, setProviderId } from '../auth.repo.ts';

export type RedirectProvider = 'github' | 'oidc' | 'linuxdo';
type Provider = RedirectProvider | 'wechat' | 'telegram';

interface ProviderInfo {
  column: ProviderColumn;
  /** Prefix of generated usernames, e.g. github_12. */
  prefix: string;
  label: string;
  enabled: 'GitHubOAuthEnabled' | 'oidc.enabled' | 'LinuxDOOAuthEnabled' | 'WeChatAuthEnabled' | 'TelegramOAuthEnabled';
}

const PROVIDERS: Record<Provider, ProviderInfo> = {
  github: { column: 'github_id', prefix: 'github', label: 'GitHub', enabled: 'GitHubOAuthEnabled' },
  oidc: { column: 'oidc_id', prefix: 'oidc', label: 'OIDC', enabled: 'oidc.enabled' },
  linuxdo: { column: 'linux_do_id', prefix: 'linuxdo', label: 'Linux DO', enabled: 'LinuxDOOAuthEnabled' },
  wechat: { column: 'wechat_id', prefix: 'wechat', label: '微信', enabled: 'WeChatAuthEnabled' },
  telegram: { column: 'telegram_id', prefix: 'telegram', label: 'Telegram', enabled: 'TelegramOAuthEnabled' },
};

/** Third-party callbacks hit outside services: a per-IP cap keeps them from being used as an amplifier. */
const OAUTH_IP_LIMIT = { limit: 30, windowMs: 60_000 };

export type OAuthOutcome = { kind: 'bind' } | { kind: 'login'; user: LoginUserView };

/** Where the request comes from and who (if anyone) is signed in. */
export interface OAuthContext {
  ip: string;
  sessionUserId?: number;
  /** Invite code kept with the OAuth state (or sent along by the WeChat dialog). */
  aff?: string;
  /** `<ServerAddress or request origin>/oauth/<provider>`: must equal what the browser was sent with. */
  redirectUri?: string;
  /** The OIDC provider's `iss` from the redirect (RFC 9207), when the console forwards it. */
  iss?: string;
}

/** Third-party sign-in (api-contract §9): bind to the signed-in user, or log in / sign up. */
export function createOAuthService(d: AuthDeps) {
  function assertEnabled(p: Provider) {
    if (!d.options.get(PROVIDERS[p].enabled))
      throw badRequest('oauth.provider_disabled', { provider: PROVIDERS[p].label });
  }

  async function throttle(ip: string) {
    const r = await d.rateLimits.take(`oauth:${ip}`, OAUTH_IP_LIMIT.limit, OAUTH_IP_LIMIT.windowMs);
    if (!r.allowed) throw tooManyRequests();
  }

  async function bind(p: Provider, userId: number, profile: ProviderProfile): Promise<OAuthOutcome> {
    const info = PROVIDERS[p];
    const holder = await findUserByProviderId(d.db, info.column, profile.id);
    if (holder && Number(holder.id) !== userId) throw conflict('oauth.account_bound', { provider: info.label });
    await setProviderId(d.db, userId, info.column, profile.id);
    return { kind: 'bind' };
  }

  async function freeUsername(prefix: string): Promise<string> {
    const candidate = `${prefix}_${(await maxUserId(d.db)) + 1}`;
    return (await usernameTaken(d.db, candidate)) ? `${prefix}_${randomAlphanumeric(8)}` : candidate;
  }

  async function loginOrSignUp(p: Provider, profile: ProviderProfile, ctx: OAuthContext): Promise<OAuthOutcome> {
    const info = PROVIDERS[p];
    const holder = await findUserByProviderId(d.db, info.column, profile.id);
    if (holder) {
      if (holder.deleted_at !== null) throw new AppError('FORBIDDEN', 'auth.user_deleted');
      if (holder.status !== UserStatus.Enabled) throw new AppError('FORBIDDEN', 'auth.user_banned');
      return { kind: 'login', user: loginUserView(holder) };
    }
    // Telegram only signs in accounts that bound it first (api-contract §9).
    if (p === 'telegram') throw badRequest('oauth.telegram_unbound');
    if (!d.options.get('RegisterEnabled')) throw badRequest('register.disabled');
    const username = await freeUsername(info.prefix);
    // Nobody knows this password: the account signs in through the provider until the user sets one.
    const passwordHash = await hashPassword(randomAlphanumeric(32));
    const email = profile.email && !(await emailTaken(d.db, profile.email)) ? profile.email : '';
    const id = await d.db.transaction().execute((tx) =>
      createSignedUpAccount(d, tx, {
        username,
        passwordHash,
        email,
        displayName: profile.displayName?.slice(0, 20),
        affCode: ctx.aff || undefined,
        ids: { [info.column]: profile.id },
      }),
    );
    const row = await findLiveUserById(d.db, id);
    if (!row) throw new AppError('INTERNAL', 'oauth.register_failed');
    return { kind: 'login', user: loginUserView(row) };
  }

  async function finish(p: Provider, profile: ProviderProfile, ctx: OAuthContext) {
    return ctx.sessionUserId ? bind(p, ctx.sessionUserId, profile) : loginOrSignUp(p, profile, ctx);
  }

  return {
    /** GitHub, OIDC and Linux.do callbacks; the transport has already checked the state. */
    async completeRedirect(p: RedirectProvider, code: string, state: string, ctx: OAuthContext) {
      assertEnabled(p);
      await throttle(ctx.ip);
      if (code === '') throw badRequest('common.invalid_params');
      const redirectUri = ctx.redirectUri ?? '';
      const profile =
        p === 'github'
          ? await githubProfile(d.options, code)
          : p === 'linuxdo'
            ? await linuxdoProfile(d.options, code, redirectUri)
            : await oidcProfile(d.options, code, state, redirectUri, ctx.iss);
      return finish(p, profile, ctx);
    },

    async wechat(code: string, ctx: OAuthContext) {
      assertEnabled('wechat');
      await throttle(ctx.ip);
      return finish('wechat', await wechatProfile(d.options, code), ctx);
    },

    async telegram(fields: unknown, ctx: OAuthContext) {
      assertEnabled('telegram');
      await throttle(ctx.ip);
      return finish('telegram', telegramProfile(d.options, fields), ctx);
    },
  };
}
