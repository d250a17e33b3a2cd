import { Trans, useLingui } from '@lingui/react/macro';
import { Stack } from '@mantine/core';
import { statusCodeList } from '../../../../shared/options.ts';
import { OptionsSection } from '../form/OptionsSection.tsx';
import { ModelMappingManager } from '../models/ModelMappingManager.tsx';
import { claudeFields, geminiFields, globalFields } from '../models/models-fields.ts';

export function ModelsTab() {
  const { t } = useLingui();
  return (
    <Stack gap="lg">
      <OptionsSection
        title={<Trans>Global settings</Trans>}
        fields={globalFields}
        testId="section-global"
        check={(v, changed) =>
          changed.includes('global.auto_retry_status_codes') &&
          !statusCodeList.safeParse(v['global.auto_retry_status_codes']).success
            ? t`Status codes look like 5xx,4xx`
            : null
        }
      />
      <OptionsSection title={<Trans>Gemini settings</Trans>} fields={geminiFields} testId="section-gemini" />
      <OptionsSection title={<Trans>Claude settings</Trans>} fields={claudeFields} testId="section-claude" />
      <ModelMappingManager />
    </Stack>
  );
}
