import { Trans } from '@lingui/react/macro';
import { Stack } from '@mantine/core';
import { OptionsSection } from '../form/OptionsSection.tsx';
import { ModelMappingManager } from '../models/ModelMappingManager.tsx';
import { RetriesSection } from '../models/RetriesSection.tsx';
import { claudeFields, geminiFields, globalFields } from '../models/models-fields.ts';

export function ModelsTab() {
  return (
    <Stack gap="lg">
      <OptionsSection title={<Trans>Global settings</Trans>} fields={globalFields} testId="section-global" />
      <RetriesSection />
      <OptionsSection title={<Trans>Gemini settings</Trans>} fields={geminiFields} testId="section-gemini" />
      <OptionsSection title={<Trans>Claude settings</Trans>} fields={claudeFields} testId="section-claude" />
      <ModelMappingManager />
    </Stack>
  );
}
