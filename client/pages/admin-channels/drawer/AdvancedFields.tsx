import { useLingui } from '@lingui/react/macro';
import { Autocomplete, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { JsonField } from '../JsonField.tsx';
import type { ChannelFormValues } from './form.ts';

type Form = UseFormReturnType<ChannelFormValues>;

const jsonProps = (form: Form, field: keyof ChannelFormValues) => ({
  value: String(form.values[field]),
  onChange: (v: string) => form.setFieldValue(field, v),
  error: form.errors[field],
});

/** Organization, test model, prefix, system prompt and the JSON settings. */
export function AdvancedFields({ form }: { form: Form }) {
  const { t } = useLingui();
  const testModel = form.values.test_model.trim();
  const unlistedTestModel = testModel !== '' && !form.values.models.includes(testModel);
  return (
    <Stack gap="md">
      <TextInput
        label={t`Organization`}
        description={t`OpenAI organization id, sent as OpenAI-Organization`}
        placeholder="org-…"
        {...form.getInputProps('openai_organization')}
      />
      <Autocomplete
        label={t`Test model`}
        // A test model the channel no longer lists (e.g. after replacing the list with the upstream's) would
        // test a name the upstream may not serve: said, not refused (a mapped name can be meant).
        description={
          unlistedTestModel ? (
            <Text span size="xs" c="orange" data-testid="test-model-unlisted">
              {t`Not among this channel's models: the test would call a model the upstream may not serve`}
            </Text>
          ) : (
            t`Used by channel tests; empty means the first model`
          )
        }
        data={form.values.models}
        {...form.getInputProps('test_model')}
      />
      <TextInput
        label={t`Model prefix`}
        description={t`Added in front of the model name sent upstream`}
        {...form.getInputProps('model_prefix')}
      />
      <Textarea
        label={t`System prompt`}
        description={t`Prepended to every conversation relayed through this channel`}
        autosize
        minRows={2}
        maxRows={6}
        {...form.getInputProps('system_prompt')}
      />
      <JsonField
        label={t`Model mapping`}
        description={t`Maps the requested model to the one sent upstream`}
        placeholder={'{"gpt-4o": "gpt-4o-2024-08-06"}'}
        example={'{\n  "gpt-3.5-turbo": "gpt-4o-mini"\n}'}
        {...jsonProps(form, 'model_mapping')}
      />
      <JsonField
        label={t`Status code mapping`}
        description={t`Rewrites upstream HTTP statuses`}
        placeholder={'{"400": "500"}'}
        example={'{\n  "400": "500"\n}'}
        {...jsonProps(form, 'status_code_mapping')}
      />
      <JsonField
        label={t`Extra settings`}
        description={t`Provider options as JSON, e.g. force_format or thinking_to_content`}
        placeholder={'{"force_format": true}'}
        example={'{\n  "force_format": true,\n  "thinking_to_content": false\n}'}
        {...jsonProps(form, 'setting')}
      />
      <JsonField
        label={t`Parameter override`}
        description={t`Fields merged into every request body`}
        placeholder={'{"temperature": 0.7}'}
        example={'{\n  "temperature": 0.7\n}'}
        {...jsonProps(form, 'param_override')}
      />
    </Stack>
  );
}
