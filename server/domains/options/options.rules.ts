import type { OptionKey, OptionReader, OptionValue } from '../../../shared/options.ts';
import type { ServerMessageCode } from '../../../shared/server-messages.ts';
import { badRequest } from '../../errors.ts';

/** Switching a sign-in method on needs its configuration first (new-api's rule). */
const requiredBeforeEnabling: Partial<Record<OptionKey, { keys: OptionKey[]; message: ServerMessageCode }>> = {
  GitHubOAuthEnabled: { keys: ['GitHubClientId', 'GitHubClientSecret'], message: 'option.github_needs_config' },
  LinuxDOOAuthEnabled: { keys: ['LinuxDOClientId', 'LinuxDOClientSecret'], message: 'option.linuxdo_needs_config' },
  'oidc.enabled': {
    keys: ['oidc.client_id', 'oidc.client_secret', 'oidc.well_known'],
    message: 'option.oidc_needs_config',
  },
  WeChatAuthEnabled: { keys: ['WeChatServerAddress', 'WeChatServerToken'], message: 'option.wechat_needs_config' },
  TurnstileCheckEnabled: { keys: ['TurnstileSiteKey', 'TurnstileSecretKey'], message: 'option.turnstile_needs_config' },
  TelegramOAuthEnabled: { keys: ['TelegramBotToken', 'TelegramBotName'], message: 'option.telegram_needs_config' },
  EmailDomainRestrictionEnabled: { keys: ['EmailDomainWhitelist'], message: 'option.email_domains_needs_config' },
};

/** Rules that look at other keys; single-key rules live in the registry's schemas. */
export function checkOptionDependencies(key: OptionKey, value: unknown, option: OptionReader): void {
  const need = requiredBeforeEnabling[key];
  if (need && value === true && need.keys.some((k) => String(option(k)).trim() === '')) {
    throw badRequest(need.message);
  }
  if ((key === 'PayAddress' || key === 'EpayId') && value !== '' && option('ServerAddress') === '') {
    throw badRequest('option.server_address_first');
  }
  if (key === 'fallback_single_price' && Number(value) > 0) {
    if (option('fallback_input_ratio') > 0 || option('fallback_completion_ratio') > 0)
      throw badRequest('option.fallback_pricing');
  }
  if ((key === 'fallback_input_ratio' || key === 'fallback_completion_ratio') && Number(value) > 0) {
    if (option('fallback_single_price') > 0) throw badRequest('option.fallback_pricing');
  }
  // Ratios are saved one key at a time, so "both or neither" can only be checked when fallback is switched on.
  if (key === 'fallback_pricing_enabled' && value === true) {
    const single = option('fallback_single_price') > 0;
    const input = option('fallback_input_ratio') > 0;
    const completion = option('fallback_completion_ratio') > 0;
    if (single ? input || completion : !(input && completion)) throw badRequest('option.fallback_pricing');
  }
}

/**
 * One setting under two names (issue 28): `global.auto_retry_count` is the legacy name of the retry
 * count `RetryTimes`. Saving either saves the other (a count of 0 leaves the legacy key, whose range
 * starts at 1), so an old console or script that sets either changes the one count the relay uses.
 */
export function mirroredOption(key: OptionKey, value: unknown, option: OptionReader): [OptionKey, string] | undefined {
  if (key === 'global.auto_retry_count') return ['RetryTimes', String(value)];
  // The money display under its old name and new-api 2026's (shared/currency.ts): switching currency on from
  // quota shows dollars (new-api's mapping); switching it on while yuan or a custom currency is chosen keeps
  // that choice, since an old console saves the switch with every save of its tab.
  if (key === 'general_setting.quota_display_type') return ['DisplayInCurrencyEnabled', String(value !== 'TOKENS')];
  if (key === 'DisplayInCurrencyEnabled') {
    const type = option('general_setting.quota_display_type');
    if (value === false) return ['general_setting.quota_display_type', 'TOKENS'];
    return ['general_setting.quota_display_type', type === 'TOKENS' ? 'USD' : type];
  }
  if (key === 'RetryTimes' && Number(value) >= 1) return ['global.auto_retry_count', String(value)];
  return undefined;
}

/**
 * The usable-group rule (new-api's GetUserUsableGroups): a user may use their own group and every group the
 * site lists in UserUsableGroups. Listed means an own key: a group named `toString` or `constructor` is not
 * usable just because every object inherits one.
 */
export function mayUseGroup(listed: OptionValue<'UserUsableGroups'>, ownGroup: string | undefined, group: string) {
  return (!!ownGroup && group === ownGroup) || Object.hasOwn(listed, group);
}
