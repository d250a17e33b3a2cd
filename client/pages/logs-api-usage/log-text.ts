import { readStoredMessage, type StoredMessage } from '../../../shared/stored-message.ts';
import { type QuotaDisplay, quotaDisplay } from '../../lib/format.ts';
import { serverTextInLanguage, storedMessageInLanguage } from '../../lib/server-messages.ts';
import { isConsumeLike, type LogOther, parseOther } from './log-meta.ts';
import type { LogItem } from './types.ts';

export type LogLine = Pick<LogItem, 'type' | 'content' | 'other' | 'quota' | 'prompt_tokens' | 'completion_tokens'>;

/**
 * A consume row's price line, from the ratios it logged (relay/relay-log.ts writes the same line
 * into `content`): price mode when a per-call price was logged (new-api logs -1 in ratio mode), and
 * the `_free` wording when the answer had no tokens and nothing was charged.
 */
export function priceMessage(o: LogOther, log: LogLine): StoredMessage | undefined {
  if (typeof o.group_ratio !== 'number') return undefined;
  const free = log.quota === 0 && log.prompt_tokens + log.completion_tokens === 0;
  if (typeof o.model_price === 'number' && o.model_price >= 0)
    return {
      code: free ? 'log.price_mode_free' : 'log.price_mode',
      params: { price: o.model_price, group_ratio: o.group_ratio },
    };
  if (typeof o.model_ratio === 'number' && typeof o.completion_ratio === 'number')
    return {
      code: free ? 'log.ratio_mode_free' : 'log.ratio_mode',
      params: { model_ratio: o.model_ratio, completion_ratio: o.completion_ratio, group_ratio: o.group_ratio },
    };
  return undefined;
}

/**
 * A log row's text in the console's language (issue 22): the message the server stored beside the
 * line (`other.message`), else a consume row's price line from its ratios, else the stored line
 * translated when it is a registry text (rows written before messages were stored), else as stored
 * (an upstream's or an imported row's own words).
 */
export function logText(log: LogLine, display: QuotaDisplay = quotaDisplay()): string {
  const o = parseOther(log.other);
  const message = readStoredMessage(o.message) ?? (isConsumeLike(log.type) ? priceMessage(o, log) : undefined);
  if (message) return storedMessageInLanguage(message, display);
  return log.content ? serverTextInLanguage(log.content) : '';
}
