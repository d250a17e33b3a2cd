import { useLingui } from '@lingui/react/macro';
import { Switch } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  autoCacheControlOn,
  settingsObject,
  takesCacheControl,
  withAutoCacheControl,
} from '../../../../shared/channel-cache.ts';
import type { ChannelFormValues } from './form.ts';

/**
 * The channel's automatic prompt-cache breakpoints (Anthropic and Bedrock channels): a switch over
 * `auto_cache_control` in the extra settings JSON, showing the type's default while the key is absent.
 */
export function CacheSwitch({ form }: { form: UseFormReturnType<ChannelFormValues> }) {
  const { t } = useLingui();
  const { type, setting } = form.values;
  if (!takesCacheControl(type)) return null;
  const settings = settingsObject(setting);
  return (
    <Switch
      label={t`Cache prompts automatically`}
      description={
        settings === undefined
          ? t`Fix the extra settings JSON to change this`
          : t`Requests from OpenAI and Gemini clients get Anthropic cache breakpoints on the system prompt, tools and conversation so far: a repeated prefix is billed at 0.1x the input price (written once at 1.25x). Anthropic clients place their own.`
      }
      disabled={settings === undefined}
      checked={autoCacheControlOn(type, settings ?? {})}
      onChange={(e) => {
        const next = withAutoCacheControl(setting, e.currentTarget.checked);
        if (next !== undefined) form.setFieldValue('setting', next);
      }}
      data-testid="auto-cache-control"
    />
  );
}
