import type { OptionKey, OptionValue } from '../../../shared/options.ts';
import { badRequest } from '../../errors.ts';

interface OptionReader {
  get<K extends OptionKey>(key: K): OptionValue<K>;
}

/** Switching a sign-in method on needs its configuration first (new-api's rule). */
const requiredBeforeEnabling: Partial<Record<OptionKey, { keys: OptionKey[]; message: string }>> = {
  GitHubOAuthEnabled: {
    keys: ['GitHubClientId', 'GitHubClientSecret'],
    message: '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！',
  },
  LinuxDOOAuthEnabled: {
    keys: ['LinuxDOClientId', 'LinuxDOClientSecret'],
    message: '无法启用 LinuxDO OAuth，请先填入 LinuxDO Client Id 以及 LinuxDO Client Secret！',
  },
  'oidc.enabled': {
    keys: ['oidc.client_id', 'oidc.client_secret', 'oidc.well_known'],
    message: '无法启用 OIDC 登录，请先填入 OIDC Client Id、Client Secret 以及 Well-Known URL！',
  },
  WeChatAuthEnabled: {
    keys: ['WeChatServerAddress', 'WeChatServerToken'],
    message: '无法启用微信登录，请先填入微信登录相关配置信息！',
  },
  TurnstileCheckEnabled: {
    keys: ['TurnstileSiteKey', 'TurnstileSecretKey'],
    message: '无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！',
  },
  TelegramOAuthEnabled: {
    keys: ['TelegramBotToken', 'TelegramBotName'],
    message: '无法启用 Telegram OAuth，请先填入 Telegram Bot Token 以及 Bot Name！',
  },
  EmailDomainRestrictionEnabled: {
    keys: ['EmailDomainWhitelist'],
    message: '无法启用邮箱域名限制，请先填入限制的邮箱域名！',
  },
};

/** Rules that look at other keys; single-key rules live in the registry's schemas. */
export function checkOptionDependencies(key: OptionKey, value: unknown, options: OptionReader): void {
  const need = requiredBeforeEnabling[key];
  if (need && value === true && need.keys.some((k) => String(options.get(k)).trim() === '')) {
    throw badRequest(need.message);
  }
  if ((key === 'PayAddress' || key === 'EpayId') && value !== '' && options.get('ServerAddress') === '') {
    throw badRequest('请先填写服务器地址');
  }
  if (key === 'fallback_single_price' && Number(value) > 0) {
    if (options.get('fallback_input_ratio') > 0 || options.get('fallback_completion_ratio') > 0)
      throw badRequest(FALLBACK_MESSAGE);
  }
  if ((key === 'fallback_input_ratio' || key === 'fallback_completion_ratio') && Number(value) > 0) {
    if (options.get('fallback_single_price') > 0) throw badRequest(FALLBACK_MESSAGE);
  }
  // Ratios are saved one key at a time, so "both or neither" can only be checked when fallback is switched on.
  if (key === 'fallback_pricing_enabled' && value === true) {
    const single = options.get('fallback_single_price') > 0;
    const input = options.get('fallback_input_ratio') > 0;
    const completion = options.get('fallback_completion_ratio') > 0;
    if (single ? input || completion : !(input && completion)) throw badRequest(FALLBACK_MESSAGE);
  }
}

/** The spec's one message for every fallback-pricing mistake. */
export const FALLBACK_MESSAGE =
  '请检查兜底倍率配置：设置单一价格时不能再设置倍率，设置倍率时需同时填写输入倍率和补全倍率';
