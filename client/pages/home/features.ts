import { msg } from '@lingui/core/macro';
import { IconApi, IconChartBar, IconCoins, IconRoute } from '@tabler/icons-react';

export const features = [
  {
    key: 'compatible',
    icon: IconApi,
    title: msg`Drop-in compatible`,
    body: msg`Use the OpenAI, Anthropic or Gemini SDKs you already have; only the base URL and key change.`,
  },
  {
    key: 'routing',
    icon: IconRoute,
    title: msg`Smart routing`,
    body: msg`Weighted channels, priorities, retries and automatic failover keep requests flowing.`,
  },
  {
    key: 'quota',
    icon: IconCoins,
    title: msg`Quota and billing`,
    body: msg`Per-model prices, user groups, redemption codes and top-ups with exact accounting.`,
  },
  {
    key: 'logs',
    icon: IconChartBar,
    title: msg`Usage insight`,
    body: msg`Every request logged with tokens, cost and latency, for you and for your users.`,
  },
];
