import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Grid, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';
import { useJsonProblemText } from '../../../components/JsonTextarea.tsx';
import { useUnsavedChanges } from '../../../components/UnsavedChanges.tsx';
import { jsonProblem } from '../../../lib/json-problem.ts';
import { checkField, type FieldDef, type Values } from './fields.ts';
import { FieldInput } from './FieldInput.tsx';
import type { OptionsForm } from './useOptionsForm.ts';
import { useOptionsForm } from './useOptionsForm.ts';

interface SectionFrameProps {
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  testId?: string;
}

/** The card every settings section sits in; an anchor for the page's "jump to section" (SectionJump). */
export function SectionFrame({ title, description, children, testId }: SectionFrameProps) {
  const anchor = useId();
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      data-testid={testId}
      id={testId ?? `section${anchor.replace(/:/g, '')}`}
      data-settings-section=""
      // Clear of the fixed header and the sticky jump box when scrolled to.
      style={{ scrollMarginTop: 130 }}
    >
      <Stack gap="md">
        <div>
          <Title order={4}>{title}</Title>
          {description && (
            <Text size="sm" c="dimmed" mt={4}>
              {description}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Card>
  );
}

export function FieldGrid({ fields, form }: { fields: FieldDef[]; form: OptionsForm }) {
  return (
    <Grid gap="md" align="flex-end">
      {fields.map((f) => (
        <Grid.Col
          key={f.key}
          span={{
            base: 12,
            sm: f.span ?? (['json', 'textarea'].includes(f.kind) ? 12 : 6),
            lg: f.span ?? defaultSpan(f),
          }}
        >
          <FieldInput field={f} form={form} />
        </Grid.Col>
      ))}
    </Grid>
  );
}

const defaultSpan = (f: FieldDef) => (['json', 'textarea'].includes(f.kind) ? 12 : 4);

/** Client checks of a section's changed fields, before anything is sent; the toast names the field and the mistake. */
export function useFieldCheck(fields: FieldDef[]) {
  const { t, i18n } = useLingui();
  const describe = useJsonProblemText();
  return (values: Values, changed: string[]): string | null => {
    for (const f of fields) {
      if (!changed.includes(f.key)) continue;
      const value = values[f.key] ?? '';
      const name = `${i18n._(f.label)} (${f.key})`;
      const json = f.kind === 'json' ? jsonProblem(value) : null;
      if (json) {
        const mistake = describe(json);
        return t`Not saved: ${name}: ${mistake}`;
      }
      if (checkField(f, value)) return t`Please check the input` + `: ${name}`;
    }
    return null;
  };
}

interface OptionsSectionProps {
  title: ReactNode;
  description?: ReactNode;
  fields: FieldDef[];
  /** Extra keys saved with this section (edited by `children`). */
  extraKeys?: string[];
  defaults?: Values;
  /** Section-specific rules on top of the field checks; returns a message to block the save. */
  check?: (values: Values, changed: string[]) => string | null;
  children?: (form: OptionsForm) => ReactNode;
  testId?: string;
  order?: (changed: string[], values: Values) => string[];
}

/** A settings card: fields from data, one Save button, the spec's save behaviour. */
export function OptionsSection(props: OptionsSectionProps) {
  const { title, description, fields, extraKeys = [], defaults, check, children, testId, order } = props;
  const form = useOptionsForm([...fields.map((f) => f.key), ...extraKeys], defaults, order);
  const fieldCheck = useFieldCheck(fields);
  const { i18n } = useLingui();
  const save = () => form.save((v, c) => fieldCheck(v, c) ?? check?.(v, c) ?? null);
  // The page asks before leaving with these unsaved, and its bar names them by their labels.
  const labelOf = (key: string) => {
    const f = fields.find((x) => x.key === key);
    return f ? i18n._(f.label) : key;
  };
  useUnsavedChanges({ title, items: form.changedKeys().map(labelOf), save, discard: form.reset });
  return (
    <SectionFrame title={title} description={description} testId={testId}>
      {form.loaded ? (
        <>
          <FieldGrid fields={fields} form={form} />
          {children?.(form)}
        </>
      ) : (
        <Skeleton h={80} />
      )}
      <Group>
        <Button loading={form.saving} disabled={!form.loaded} onClick={() => void save()}>
          <Trans>Save</Trans>
        </Button>
      </Group>
    </SectionFrame>
  );
}
