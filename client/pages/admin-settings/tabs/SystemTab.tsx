import { Trans, useLingui } from '@lingui/react/macro';
import { Stack } from '@mantine/core';
import { OptionsSection } from '../form/OptionsSection.tsx';
import { useOptionMap } from '../form/useOptionsForm.ts';
import { EmailDomainSection } from '../system/EmailDomainSection.tsx';
import { LoginSwitches } from '../system/LoginSwitches.tsx';
import { OidcSection } from '../system/OidcSection.tsx';
import { TracingSection } from '../system/TracingSection.tsx';
import { passkeyFields } from '../system/passkey-fields.ts';
import {
  generalFields,
  githubFields,
  linuxDoFields,
  paymentFields,
  smtpFields,
  telegramFields,
  turnstileFields,
  wechatFields,
} from '../system/system-fields.ts';

export function SystemTab() {
  const { t } = useLingui();
  const { map } = useOptionMap();
  return (
    <Stack gap="lg">
      <OptionsSection title={<Trans>General</Trans>} fields={generalFields} testId="section-system-general" />
      <OptionsSection
        title={<Trans>Payment</Trans>}
        fields={paymentFields}
        testId="section-payment"
        check={(v, changed) =>
          (map.ServerAddress ?? '') === '' && changed.some((k) => ['PayAddress', 'EpayId'].includes(k) && v[k] !== '')
            ? t`Please set the server address first`
            : null
        }
      />
      <LoginSwitches />
      <EmailDomainSection />
      <OptionsSection title={<Trans>SMTP (outgoing e-mail)</Trans>} fields={smtpFields} testId="section-smtp" />
      <OidcSection />
      <OptionsSection title={<Trans>Passkey sign-in</Trans>} fields={passkeyFields} testId="section-passkey" />
      <OptionsSection title={<Trans>GitHub sign-in</Trans>} fields={githubFields} testId="section-github" />
      <OptionsSection title={<Trans>Linux.do sign-in</Trans>} fields={linuxDoFields} testId="section-linuxdo" />
      <OptionsSection title={<Trans>WeChat server</Trans>} fields={wechatFields} testId="section-wechat" />
      <OptionsSection title={<Trans>Telegram bot</Trans>} fields={telegramFields} testId="section-telegram" />
      <OptionsSection title={<Trans>Human verification</Trans>} fields={turnstileFields} testId="section-turnstile" />
      <TracingSection />
    </Stack>
  );
}
