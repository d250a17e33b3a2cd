import { Trans } from '@lingui/react/macro';
import { Stack } from '@mantine/core';
import { OptionsSection } from '../form/OptionsSection.tsx';
import { ModelMappingManager } from '../models/ModelMappingManager.tsx';
import { RetriesSection } from '../models/RetriesSection.tsx';
import { affinityFields, claudeFields, geminiFields, globalFields } from '../models/models-fields.ts';

export function ModelsTab() {
  return (
    <Stack gap="lg">
      <OptionsSection title={<Trans>Global settings</Trans>} fields={globalFields} testId="section-global" />
      <RetriesSection />
      <OptionsSection
        title={<Trans>Session affinity</Trans>}
        description={
          <Trans>
            Providers cache a prompt per account and key, and agent clients send the same long prompt every turn. With
            this on, the turns of one session go to the channel and key that answered the last one while it stays
            healthy; a failure moves the session to whichever channel answers instead. Sessions are recognised by what
            the clients send (Codex, Claude Code, OpenCode, X-Session-Id, prompt_cache_key), else by the token and the
            start of a long prompt, and never shared between users.
          </Trans>
        }
        fields={affinityFields}
        testId="section-affinity"
      />
      <OptionsSection title={<Trans>Gemini settings</Trans>} fields={geminiFields} testId="section-gemini" />
      <OptionsSection title={<Trans>Claude settings</Trans>} fields={claudeFields} testId="section-claude" />
      <ModelMappingManager />
    </Stack>
  );
}
