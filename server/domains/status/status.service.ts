import { currencySettingsOf, displayTypeOf } from '../../../shared/currency.ts';
import type { Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import type { OptionsService } from '../options/options.service.ts';
import { hasSetupRow } from '../users/users.repo.ts';
import { console2026Status } from './status.view.ts';

export type StatusService = ReturnType<typeof createStatusService>;

const startTime = nowSeconds();

/**
 * The public status object every console page loads at start (GET /api/status),
 * and whether first-run setup is done. Setup state is cached: it only ever
 * changes once, from false to true.
 */
export function createStatusService(infra: Infra, options: OptionsService) {
  let setupDone: boolean | undefined;

  async function isSetupDone(): Promise<boolean> {
    if (setupDone) return true;
    setupDone = await hasSetupRow(infra.db);
    return setupDone;
  }

  return {
    isSetupDone,
    markSetupDone() {
      setupDone = true;
    },

    async getStatus() {
      const o = options.get.bind(options);
      const chats = o('Chats');
      return {
        version: infra.config.version,
        start_time: startTime,
        system_name: o('SystemName'),
        logo: o('Logo'),
        footer_html: o('Footer'),
        notice_enabled: o('Notice') !== '',
        server_address: o('ServerAddress'),
        price: o('Price'),
        min_topup: o('MinTopUp'),
        top_up_link: o('TopUpLink'),
        docs_link: o('general_setting.docs_link'),
        quota_per_unit: o('QuotaPerUnit'),
        // False when the display type is TOKENS however the older switch is stored (shared/currency.ts).
        display_in_currency: displayTypeOf(currencySettingsOf(o)) !== 'TOKENS',
        display_token_stat: o('DisplayTokenStatEnabled'),
        enable_batch_update: false,
        enable_drawing: o('DrawingEnabled'),
        enable_task: o('TaskEnabled'),
        enable_data_export: o('DataExportEnabled'),
        data_export_default_time: o('DataExportDefaultTime'),
        default_collapse_sidebar: o('DefaultCollapseSidebar'),
        enable_online_topup: o('PayAddress') !== '' && o('EpayId') !== '' && o('EpayKey') !== '',
        mj_notify_enabled: o('MjNotifyEnabled'),
        chats,
        chat_link: o('ChatLink'),
        chat_link2: o('ChatLink2'),
        demo_site_enabled: o('DemoSiteEnabled'),
        self_use_mode_enabled: o('SelfUseModeEnabled'),
        aff_enabled: o('AffEnabled'),
        check_in_enabled: o('CheckInEnabled'),
        log_chat_content_enabled: false,
        register_enabled: o('RegisterEnabled'),
        password_login_enabled: o('PasswordLoginEnabled'),
        password_register_enabled: o('PasswordRegisterEnabled'),
        email_verification: o('EmailVerificationEnabled'),
        // Whether the gateway can send mail at all: the console offers password reset only then (issue 22).
        smtp_enabled: o('SMTPServer').trim() !== '',
        // DEMO_CHANNEL: the channels page offers a channel answered by the built-in demo upstream.
        demo_channel: infra.config.demoChannel,
        github_oauth: o('GitHubOAuthEnabled'),
        github_client_id: o('GitHubClientId'),
        linuxdo_oauth: o('LinuxDOOAuthEnabled'),
        linuxdo_client_id: o('LinuxDOClientId'),
        linuxdo_minimum_trust_level: o('LinuxDOMinimumTrustLevel'),
        telegram_oauth: o('TelegramOAuthEnabled'),
        telegram_bot_name: o('TelegramBotName'),
        wechat_login: o('WeChatAuthEnabled'),
        wechat_qrcode: o('WeChatAccountQRCodeImageURL'),
        turnstile_check: o('TurnstileCheckEnabled'),
        turnstile_site_key: o('TurnstileSiteKey'),
        oidc_enabled: o('oidc.enabled'),
        oidc_client_id: o('oidc.client_id'),
        oidc_authorization_endpoint: o('oidc.authorization_endpoint'),
        oidc_token_endpoint: o('oidc.token_endpoint'),
        oidc_user_info_endpoint: o('oidc.user_info_endpoint'),
        // Passkey sign-in (new-api's passkey_* fields); the sign-in page offers it when passkey_login is on.
        passkey_login: o('passkey.enabled'),
        passkey_display_name: o('passkey.rp_display_name') || o('SystemName'),
        passkey_rp_id: o('passkey.rp_id'),
        passkey_origins: o('passkey.origins'),
        passkey_allow_insecure: o('passkey.allow_insecure_origin'),
        passkey_user_verification: o('passkey.user_verification'),
        passkey_attachment: o('passkey.attachment_preference'),
        head_html: o('HeadHTML'),
        global_css: o('GlobalCSS'),
        global_js: o('GlobalJS'),
        setup: await isSetupDone(),
        ...console2026Status(o),
      };
    },
  };
}

export type StatusObject = Awaited<ReturnType<StatusService['getStatus']>>;
