import { currencySettingsOf, displayTypeOf } from '../../../shared/currency.ts';
import type { OptionReader } from '../../../shared/options.ts';

/*
 * The /api/status fields new-api's 2026 console reads beyond the April 2025 ones (controller/misc.go
 * GetStatus; docs/new-api-contract/misc.md), each from the Switchyard setting that decides it.
 * Features Switchyard does not have answer as new-api does when they are off (Discord sign-in,
 * automatic groups, custom OAuth providers: absent).
 */
export function console2026Status(o: OptionReader) {
  const panels = {
    api_info_enabled: o('console_setting.api_info_enabled'),
    uptime_kuma_enabled: o('console_setting.uptime_kuma_enabled'),
    announcements_enabled: o('console_setting.announcements_enabled'),
    faq_enabled: o('console_setting.faq_enabled'),
  };
  const currency = currencySettingsOf(o);
  return {
    // The 2026 name of check_in_enabled (which stays for the April 2025 console).
    checkin_enabled: o('CheckInEnabled'),
    // How money is shown (shared/currency.ts): USD, CNY at usd_exchange_rate yuan per dollar, CUSTOM with
    // its own symbol and rate, or TOKENS (raw quota); the console formats every amount with these four.
    quota_display_type: displayTypeOf(currency),
    custom_currency_symbol: currency.customSymbol,
    custom_currency_exchange_rate: currency.customRate,
    usd_exchange_rate: currency.usdExchangeRate,
    stripe_unit_price: 0,
    default_use_auto_group: false,
    discord_oauth: false,
    discord_client_id: '',
    ...panels,
    ...(panels.api_info_enabled ? { api_info: o('console_setting.api_info') } : {}),
    ...(panels.announcements_enabled ? { announcements: o('console_setting.announcements') } : {}),
    ...(panels.faq_enabled ? { faq: o('console_setting.faq') } : {}),
    HeaderNavModules: o('HeaderNavModules'),
    SidebarModulesAdmin: o('SidebarModulesAdmin'),
    user_agreement_enabled: o('legal.user_agreement').trim() !== '',
    privacy_policy_enabled: o('legal.privacy_policy').trim() !== '',
  };
}
