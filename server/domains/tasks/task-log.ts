import type { NewLog } from '../../db/types.ts';

/**
 * A log row with every column set: the log writer inserts rows in multi-row
 * batches, and SQLite refuses a batch whose rows name different columns.
 */
export function taskLog(row: NewLog): Required<Omit<NewLog, 'id'>> {
  return {
    user_id: 0,
    type: 2,
    content: '',
    username: '',
    token_name: '',
    model_name: '',
    quota: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    use_time: 0,
    is_stream: 0,
    channel_id: 0,
    token_id: 0,
    group: '',
    ip: '',
    request_id: '',
    other: '',
    ...row,
  };
}
