import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '../../../lib/errors.ts';
import { trpc } from '../../../trpc.ts';
import { OptionsSection } from '../form/OptionsSection.tsx';
import { oidcFields } from './system-fields.ts';

/** OIDC sign-in; "fetch from well-known" fills the three endpoints (saved with Save). */
export function OidcSection() {
  const { t } = useLingui();
  const discover = trpc.options.fetchOidcConfig.useMutation();
  return (
    <OptionsSection title={<Trans>OIDC sign-in</Trans>} fields={oidcFields} testId="section-oidc">
      {(form) => (
        <div>
          <Button
            variant="light"
            loading={discover.isPending}
            onClick={() => {
              const wellKnown = (form.values['oidc.well_known'] ?? '').trim();
              if (!/^https?:\/\//i.test(wellKnown)) {
                notifications.show({
                  color: 'red',
                  message: t`The well-known URL must start with http:// or https://`,
                });
                return;
              }
              discover.mutate(
                { wellKnown },
                {
                  onSuccess: (d) => {
                    form.setMany({
                      'oidc.authorization_endpoint': d.authorization_endpoint,
                      'oidc.token_endpoint': d.token_endpoint,
                      'oidc.user_info_endpoint': d.user_info_endpoint,
                    });
                    notifications.show({ color: 'teal', message: t`Endpoints filled in; press Save to keep them` });
                  },
                  onError: (e) =>
                    notifications.show({
                      color: 'red',
                      message: t`Failed to get the OIDC configuration` + `: ${errorMessage(e)}`,
                    }),
                },
              );
            }}
          >
            <Trans>Fetch from well-known</Trans>
          </Button>
        </div>
      )}
    </OptionsSection>
  );
}
