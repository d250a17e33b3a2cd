import type { Selectable } from 'kysely';
import type { Defaulted, Id } from '../../db/columns.ts';

/* The rows of `channels`, `abilities` (joined into `Database` by server/db/types.ts). */

export interface ChannelsTable {
  id: Id;
  type: Defaulted<number>;
  key: string;
  openai_organization: string | null;
  test_model: string | null;
  status: Defaulted<number>;
  name: Defaulted<string>;
  weight: Defaulted<number>;
  created_time: Defaulted<number>;
  test_time: Defaulted<number>;
  response_time: Defaulted<number>;
  base_url: string | null;
  other: Defaulted<string>;
  balance: Defaulted<number>;
  balance_updated_time: Defaulted<number>;
  models: Defaulted<string>;
  group: Defaulted<string>;
  used_quota: Defaulted<number>;
  model_mapping: string | null;
  status_code_mapping: string | null;
  priority: Defaulted<number>;
  auto_ban: Defaulted<number>;
  other_info: Defaulted<string>;
  tag: string | null;
  setting: string | null;
  param_override: string | null;
  system_prompt: string | null;
  model_prefix: string | null;
  max_input_tokens: Defaulted<number>;
  /** Per-key state of a multi-key channel, new-api's JSON (shared/channel-info.ts); '' for a single key. */
  channel_info: Defaulted<string>;
  /** The last channel test's outcome as JSON (shared/channel-test-result.ts); '' before the first test. */
  test_result: Defaulted<string>;
}

export interface AbilitiesTable {
  group: string;
  model: string;
  channel_id: number;
  enabled: Defaulted<number>;
  priority: Defaulted<number>;
  weight: Defaulted<number>;
  tag: string | null;
}

export type ChannelRow = Selectable<ChannelsTable>;
export type AbilityRow = Selectable<AbilitiesTable>;
