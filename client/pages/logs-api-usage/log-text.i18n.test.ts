import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { LogType } from '../../../shared/constants.ts';
import { type StoredMessage, storedMessageText } from '../../../shared/stored-message.ts';
import type { QuotaDisplay } from '../../lib/format.ts';
import { messages as en } from '../../locales/en/server-messages.po';
import { messages as zh } from '../../locales/zh/server-messages.po';
import { type LogLine, logText } from './log-text.ts';

/*
 * Every kind of log row the gateway writes, rendered in both console languages from what the row
 * stores (`other`), as the usage-log table and the row details show it. `content` and `other` are
 * made as server/domains/logs/log-message.view.ts makes them (its test checks the rows the gateway writes).
 */

function messageLogFields(
  message: StoredMessage,
  opts: { amountText?: (quota: number) => string; other?: Record<string, unknown> } = {},
) {
  return {
    content: storedMessageText(message, opts.amountText),
    other: JSON.stringify({ ...opts.other, message }),
  };
}

const dollars: QuotaDisplay = { displayInCurrency: true, quotaPerUnit: 500_000 };
const points: QuotaDisplay = { displayInCurrency: false, quotaPerUnit: 500_000 };

const row = (type: number, fields: { content: string; other: string }, extra: Partial<LogLine> = {}): LogLine => ({
  type,
  quota: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  ...fields,
  ...extra,
});

const consume = (other: Record<string, unknown>, content: string, extra: Partial<LogLine> = {}) =>
  row(
    LogType.Consume,
    { content, other: JSON.stringify(other) },
    { quota: 85, prompt_tokens: 10, completion_tokens: 20, ...extra },
  );

const RATIOS = { model_ratio: 0.075, completion_ratio: 4, group_ratio: 1, model_price: -1, cache_ratio: 1 };

const rows = {
  ratio: consume(RATIOS, '模型倍率 0.075，补全倍率 4，分组倍率 1'),
  price: consume(
    { model_ratio: 0, completion_ratio: 0, group_ratio: 1.5, model_price: 0.02 },
    '模型价格 0.02，分组倍率 1.5',
  ),
  free: consume(RATIOS, '模型倍率 0.075，补全倍率 4，分组倍率 1，零 token 不计费', {
    quota: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
  }),
  task: row(
    LogType.Consume,
    messageLogFields(
      { code: 'log.task_submitted', params: { platform: 'Midjourney', action: 'IMAGINE', task_id: '1712' } },
      { other: { model_price: 0.1, group_ratio: 1, task: true } },
    ),
    { quota: 50_000 },
  ),
  redeemed: row(
    LogType.TopUp,
    messageLogFields(
      { code: 'log.redeemed', params: { amount: { quota: 5_000_000 } } },
      { amountText: (q) => `$${(q / 500_000).toFixed(6)} 额度` },
    ),
  ),
  online: row(
    LogType.TopUp,
    messageLogFields({ code: 'log.online_topup', params: { amount: { quota: 1_000_000 }, money: '14.00' } }),
  ),
  checkin: row(LogType.CheckIn, messageLogFields({ code: 'log.checkin', params: { amount: { quota: 1234 } } })),
  adminChange: row(
    LogType.Manage,
    messageLogFields({
      code: 'log.admin_quota_change',
      params: { from: { quota: 500_000 }, to: { quota: 2_500_000 } },
    }),
  ),
  gift: row(LogType.System, messageLogFields({ code: 'log.new_user_gift', params: { amount: { quota: 250_000 } } })),
  refund: row(
    LogType.System,
    messageLogFields(
      {
        code: 'log.task_refund_suno',
        params: { task_id: 'abc', amount: { quota: 50_000 }, reason: '任务失败' },
      },
      { other: { task_refund: true } },
    ),
  ),
  // Rows written before the message was stored: the line is recognised by its wording.
  oldRedeem: row(LogType.TopUp, { content: '通过兑换码充值 $10.000000 额度', other: '' }),
  // Error rows (issue 28, relay/error-log.ts): the gateway's refusal in both languages, a billing
  // refusal by its code, an upstream's own words as given.
  refused: row(LogType.Error, {
    content: '该令牌无权访问模型 gpt-x',
    other: JSON.stringify({
      status_code: 403,
      message: {
        code: 'log.relay_error',
        params: { en: 'This token may not use model gpt-x', zh: '该令牌无权访问模型 gpt-x' },
      },
    }),
  }),
  noQuota: row(
    LogType.Error,
    messageLogFields({ code: 'billing.user_quota_insufficient', params: {} }, { other: { status_code: 403 } }),
  ),
  upstream: row(LogType.Error, {
    content: 'The server had an error while processing your request.',
    other: JSON.stringify({ status_code: 500, error_type: 'upstream_error' }),
  }),
  // Words the registry does not know (an imported row, an upstream's text) are shown as stored.
  foreign: row(LogType.System, { content: 'imported by hand', other: '{"message":{"code":"no.such_code"}}' }),
};

function inLanguage(lang: 'en' | 'zh', display: QuotaDisplay) {
  i18n.loadAndActivate({ locale: lang, messages: lang === 'en' ? en : zh });
  return Object.fromEntries(Object.entries(rows).map(([k, r]) => [k, logText(r, display)]));
}

describe('a log row in the console language', () => {
  it('reads in English, money as the site shows it', () => {
    expect(inLanguage('en', dollars)).toEqual({
      ratio: 'Model ratio 0.075, completion ratio 4, group ratio 1',
      price: 'Model price 0.02, group ratio 1.5',
      free: 'Model ratio 0.075, completion ratio 4, group ratio 1, no tokens so nothing charged',
      task: 'Midjourney IMAGINE, task ID 1712',
      redeemed: 'Topped up $10.00 with a redemption code',
      online: 'Online top-up of $2.00, paid 14.00',
      checkin: 'Check-in reward: $0.002468',
      adminChange: 'An administrator changed the quota from $1.00 to $5.00',
      gift: 'Welcome gift for a new user: $0.50',
      refund: 'Suno task abc failed, refunded $0.10; reason: Task failed',
      oldRedeem: 'Topped up $10.000000 of quota with a redemption code',
      refused: 'This token may not use model gpt-x',
      noQuota: 'Your quota is not enough',
      upstream: 'The server had an error while processing your request.',
      foreign: 'imported by hand',
    });
  });

  it('reads in Chinese, amounts in quota when the site shows quota', () => {
    expect(inLanguage('zh', points)).toEqual({
      ratio: '模型倍率 0.075，补全倍率 4，分组倍率 1',
      price: '模型价格 0.02，分组倍率 1.5',
      free: '模型倍率 0.075，补全倍率 4，分组倍率 1，零 token 不计费',
      task: 'Midjourney IMAGINE，任务 ID 1712',
      redeemed: '通过兑换码充值 5,000,000',
      online: '使用在线充值成功，充值金额: 1,000,000，支付金额：14.00',
      checkin: '签到获得 1,234',
      adminChange: '管理员将用户额度从 500,000 修改为 2,500,000',
      gift: '新用户注册赠送 250,000 额度',
      refund: 'Suno 任务失败 abc，补偿 50,000 额度，原因：任务失败',
      oldRedeem: '通过兑换码充值 $10.000000 额度',
      refused: '该令牌无权访问模型 gpt-x',
      noQuota: '用户额度不足',
      upstream: 'The server had an error while processing your request.',
      foreign: 'imported by hand',
    });
  });

  it('keeps the Chinese line legacy clients read, word for word', () => {
    expect(rows.redeemed.content).toBe('通过兑换码充值 $10.000000 额度');
    expect(rows.refund.content).toBe('Suno 任务失败 abc，补偿 50000 额度，原因：任务失败');
    expect(rows.task.content).toBe('Midjourney IMAGINE，任务 ID 1712');
  });
});
