import { useLingui } from '@lingui/react/macro';
import { Box, Code, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { quotaDisplay } from '../../lib/format.ts';
import { checkCost } from './cost-formula.ts';
import { CostFormula } from './CostFormula.tsx';
import { imagesOf, isConsumeLike, isError, type LogOther, paidFromPlan, parseOther, retryChain } from './log-meta.ts';
import { logText } from './log-text.ts';
import type { LogItem } from './types.ts';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ wordBreak: 'break-word' }}>
        {children}
      </Text>
    </Box>
  );
}

const has = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * The expanded row: the columns the table had no room for (`extra`), every part of `other`
 * that is present, and the cost formula (spec §9).
 */
export function LogDetails({
  log,
  admin,
  extra = [],
}: {
  log: LogItem;
  admin: boolean;
  extra?: [string, ReactNode][];
}) {
  const { t } = useLingui();
  const o: LogOther = parseOther(log.other);
  const chain = retryChain(o);
  const text = logText(log);
  const cost = isConsumeLike(log.type)
    ? checkCost(o, log.prompt_tokens, log.completion_tokens, log.quota, quotaDisplay().quotaPerUnit)
    : null;

  const fields: [string, ReactNode][] = [...extra];
  const add = (cond: boolean, label: string, value: ReactNode) => {
    if (cond) fields.push([label, value]);
  };
  const plan = paidFromPlan(o);
  add(
    plan !== null,
    t`Paid from`,
    plan?.title
      ? t`Plan ${plan.title} (subscription #${plan.subscriptionId})`
      : t`Subscription #${plan?.subscriptionId ?? 0}`,
  );
  add(has(o.model_ratio), t`Model ratio`, o.model_ratio);
  add(has(o.completion_ratio), t`Completion ratio`, o.completion_ratio);
  add(has(o.group_ratio), t`Group ratio`, o.group_ratio);
  add(has(o.user_group_ratio) && o.user_group_ratio !== -1, t`User group ratio`, o.user_group_ratio);
  const images = imagesOf(o);
  add(
    has(o.model_price) && (o.model_price ?? -1) >= 0,
    images ? t`Model price (USD per image)` : t`Model price (USD per call)`,
    o.model_price,
  );
  add(images !== null, t`Images`, images?.count);
  add(Boolean(images?.size), t`Image size`, images?.size);
  add(Boolean(images?.quality), t`Image quality`, images?.quality);
  const cached = o.cache_tokens ?? 0;
  const share = log.prompt_tokens > 0 ? `${Math.round((cached / log.prompt_tokens) * 100)}%` : '-';
  add(has(o.cache_tokens) && cached > 0, t`Cache tokens`, t`${cached} (${share} of the prompt)`);
  add(has(o.cache_ratio) && (o.cache_tokens ?? 0) > 0, t`Cache ratio`, o.cache_ratio);
  add((o.cache_creation_tokens ?? 0) > 0, t`Cache creation tokens`, o.cache_creation_tokens);
  add((o.cache_creation_tokens ?? 0) > 0, t`Cache creation ratio`, o.cache_creation_ratio);
  add(Boolean(o.is_model_mapped), t`Upstream model`, `${log.model_name} → ${o.upstream_model_name ?? ''}`);
  add((o.frt ?? 0) > 0, t`First token`, `${o.frt} ms`);
  add(has(o.reasoning_effort), t`Reasoning effort`, o.reasoning_effort);
  add(
    Boolean(o.audio) || (o.audio_input ?? 0) > 0,
    t`Audio in / out`,
    `${o.audio_input ?? 0} / ${o.audio_output ?? 0}`,
  );
  add((o.text_input ?? 0) > 0, t`Text in / out`, `${o.text_input ?? 0} / ${o.text_output ?? 0}`);
  add(Boolean(o.ws), t`Realtime`, 'WebSocket');
  const errorTypes: Record<string, string> = {
    upstream_error: t`Upstream error`,
    gateway_error: t`Refused by the gateway`,
  };
  add(has(o.status_code), t`Status code`, o.status_code);
  add(has(o.error_type), t`Error type`, errorTypes[o.error_type ?? ''] ?? o.error_type);
  add(has(o.error_code), t`Error code`, o.error_code);
  const attempt = o.attempt ?? 0;
  add(attempt > 0, t`Attempt`, o.retried ? t`${attempt} (retried on another channel)` : attempt);
  add(isError(log.type) && has(o.duration_ms), t`Duration`, `${o.duration_ms} ms`);
  add(admin && has(o.admin_info?.upstream_reason), t`Upstream's reason`, o.admin_info?.upstream_reason);
  add(admin && chain.length > 0, t`Channels tried`, chain.join(' → '));
  const pin = o.admin_info?.channel_affinity;
  const pinnedKey = pin?.key_fingerprint?.slice(0, 8);
  add(
    admin && pin !== undefined,
    t`Session affinity`,
    pinnedKey ? t`Stayed on the session's channel and key (${pinnedKey})` : t`Stayed on the session's channel`,
  );
  add(admin && log.channel > 0, t`Channel`, `#${log.channel} ${log.channel_name}`);
  add(has(log.client_ip), t`Client IP`, log.client_ip);
  add(has(log.request_id), t`Request ID`, log.request_id);
  // Built-in tools the client declared that the upstream cannot run (the relay left them out).
  add(Boolean(o.dropped_tools?.length), t`Tools left out`, o.dropped_tools?.join(', '));

  const chat: [string, string][] = [];
  if (o.system_prompt) chat.push([t`System prompt`, o.system_prompt]);
  if (o.input_content) chat.push([t`Input`, o.input_content]);
  if (o.output_content) chat.push([t`Output`, o.output_content]);

  return (
    <Stack gap="sm" p="md" data-testid="log-details">
      {text && <Field label={t`Details`}>{text}</Field>}
      {fields.length > 0 && (
        <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="sm" verticalSpacing="xs">
          {fields.map(([label, value]) => (
            <Field key={label} label={label}>
              {value}
            </Field>
          ))}
        </SimpleGrid>
      )}
      {cost && <CostFormula check={cost} />}
      {chat.map(([label, text]) => (
        <Field key={label} label={label}>
          <Code block style={{ whiteSpace: 'pre-wrap', maxHeight: 240, overflow: 'auto' }}>
            {text}
          </Code>
        </Field>
      ))}
      {fields.length === 0 && !text && cost === null && chat.length === 0 && (
        <Text size="sm" c="dimmed">
          {t`No details`}
        </Text>
      )}
    </Stack>
  );
}
