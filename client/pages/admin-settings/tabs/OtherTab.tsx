import { Trans } from '@lingui/react/macro';
import { Stack } from '@mantine/core';
import { OptionsSection } from '../form/OptionsSection.tsx';
import { compatFields } from '../other/compat-fields.ts';
import { LogsSection } from '../other/LogsSection.tsx';
import { generalFields } from './operation-fields.ts';
import {
  checkInFields,
  dashboardFields,
  drawingFields,
  monitoringFields,
  sensitiveFields,
} from '../other/other-fields.ts';

export function OtherTab() {
  return (
    <Stack gap="lg">
      <OptionsSection title={<Trans>General settings</Trans>} fields={generalFields} testId="section-general" />
      <OptionsSection title={<Trans>Drawing</Trans>} fields={drawingFields} testId="section-drawing" />
      <OptionsSection title={<Trans>Sensitive words</Trans>} fields={sensitiveFields} testId="section-sensitive" />
      <LogsSection />
      <OptionsSection title={<Trans>Data dashboard</Trans>} fields={dashboardFields} testId="section-dashboard" />
      <OptionsSection title={<Trans>Monitoring</Trans>} fields={monitoringFields} testId="section-monitoring" />
      <OptionsSection title={<Trans>Check-in</Trans>} fields={checkInFields} testId="section-checkin" />
      <OptionsSection title={<Trans>new-api compatibility</Trans>} fields={compatFields} testId="section-compat" />
    </Stack>
  );
}
