import { ChannelType } from '../../../../../shared/channel-types.ts';
import type { ChannelQuery } from '../../shared/channel-query.ts';
import { dashboardBilling } from './dashboard-billing.ts';
import { deepSeekBalance } from './deepseek.ts';
import { openRouterBalance } from './openrouter.ts';
import { siliconFlowBalance } from './siliconflow.ts';

/**
 * Balance endpoints of the OpenAI-compatible channel types that have one (relay.md §4), all in
 * USD; the other types answer "not supported".
 */
export const openAICompatibleBalances: Readonly<Partial<Record<number, ChannelQuery<number>>>> = {
  [ChannelType.OpenAI]: dashboardBilling,
  [ChannelType.Custom]: dashboardBilling,
  [ChannelType.DeepSeek]: deepSeekBalance,
  [ChannelType.SiliconFlow]: siliconFlowBalance,
  [ChannelType.OpenRouter]: openRouterBalance,
};
