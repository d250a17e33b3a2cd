import { Trans, useLingui } from '@lingui/react/macro';
import { Code, Text } from '@mantine/core';
import { DEFAULT_RETRY_STATUS_CODES, statusCodeList } from '../../../../shared/options.ts';
import { OptionsSection } from '../form/OptionsSection.tsx';
import type { Values } from '../form/fields.ts';
import { retryFields } from './models-fields.ts';

/** The statuses the relay retries with these values (server/relay/retry.ts), as the card states them. */
const retriedStatuses = (v: Values) =>
  v['global.auto_retry_enabled'] === 'true'
    ? (v['global.auto_retry_status_codes'] ?? '').trim()
    : DEFAULT_RETRY_STATUS_CODES;

/**
 * Retries, one card (issue 28): what happens when a channel fails, how many other channels are tried
 * and which upstream statuses count as a failure. Replaces new-api's separate "retry times" and
 * "automatic retry" settings, whose option keys it keeps.
 */
export function RetriesSection() {
  const { t } = useLingui();
  return (
    <OptionsSection
      title={<Trans>Retries</Trans>}
      description={
        <Trans>
          When a channel cannot be reached or answers with a retried status, the request is sent to another channel
          serving the model, highest priority first, up to the number of times set here. The client's own mistakes (such
          as 400) are not retried, nothing is retried once the answer has started reaching the client, and a request
          pinned to one channel is tried once.
        </Trans>
      }
      fields={retryFields}
      testId="section-retries"
      check={(v, changed) =>
        changed.includes('global.auto_retry_status_codes') &&
        !statusCodeList.safeParse(v['global.auto_retry_status_codes']).success
          ? t`Status codes look like 5xx,4xx`
          : null
      }
    >
      {(form) => {
        const list = retriedStatuses(form.values);
        const times = Number(form.values.RetryTimes);
        return (
          <Text size="sm" data-testid="retries-summary">
            {times > 0 ? (
              <Trans>
                Now: connection failures and the statuses <Code>{list === '' ? t`every status` : list}</Code> are
                retried on up to {times} other channels.
              </Trans>
            ) : (
              <Trans>Now: failover is off; a failed request is answered with the first channel's error.</Trans>
            )}
          </Text>
        );
      }}
    </OptionsSection>
  );
}
