import { z } from 'zod';
import { storedMessageSchema } from './stored-message.ts';

/*
 * The last channel test's outcome, stored as JSON in channels.test_result (issue 28) so the channel
 * list shows a failed test in its row, not only in a toast. `message` is new-api's Chinese wording of
 * the failure (what legacy clients would read), `reason` its registry code and parameters, so the
 * console words it in its own language. test_time and response_time stay new-api's columns.
 */
export const channelTestResultSchema = z.object({
  ok: z.boolean(),
  /** How long the test took, in milliseconds (a failure's too: the time until it failed). */
  time_ms: z.number().int().min(0),
  message: z.string().optional(),
  reason: storedMessageSchema.optional(),
  /** Technical text behind a network failure ("connect ECONNREFUSED ..."), for a "details" disclosure. */
  detail: z.string().optional(),
});
export type StoredChannelTest = z.infer<typeof channelTestResultSchema>;

/** The stored result of a channel row's `test_result` text, or null when untested or unreadable. */
export function readChannelTestResult(json: string | null | undefined): StoredChannelTest | null {
  if (!json) return null;
  try {
    const r = channelTestResultSchema.safeParse(JSON.parse(json));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
