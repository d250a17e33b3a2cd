import { z } from 'zod';
import { type ServerMessageCode, serverMessages, serverText } from './server-messages.ts';

/*
 * A registry message stored beside the prose it produced (issue 22): a log row's `other.message`, a
 * notice's or a task's message. The prose (new-api's Chinese) stays as it always was, for legacy
 * clients; the console renders the code and parameters in its own language. An amount of quota is
 * stored as the number (`{ quota }`), so the console shows it as the operator chose to show money.
 */

const codes = Object.keys(serverMessages) as [ServerMessageCode, ...ServerMessageCode[]];

const storedParam = z.union([z.string(), z.number(), z.object({ quota: z.number() })]);

export const storedMessageSchema = z.object({
  code: z.enum(codes),
  params: z.record(z.string(), storedParam).default({}),
});

export type StoredMessage = z.infer<typeof storedMessageSchema>;
export type StoredParam = z.infer<typeof storedParam>;

/** The stored message in a JSON value, when it is one the registry still has (else undefined). */
export function readStoredMessage(value: unknown): StoredMessage | undefined {
  const r = storedMessageSchema.safeParse(value);
  return r.success ? r.data : undefined;
}

/** The parameters as text, each amount of quota worded by `amountText`. */
export function paramsAsText(
  params: StoredMessage['params'],
  amountText: (quota: number) => string,
): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, typeof v === 'object' ? amountText(v.quota) : v]),
  );
}

/** The Chinese text of a stored message (what legacy clients read), amounts worded by `amountText`. */
export const storedMessageText = (m: StoredMessage, amountText: (quota: number) => string = String): string =>
  serverText(m.code, paramsAsText(m.params, amountText));

/** A notice the server wrote itself (an inbox message's title and content), stored beside its words. */
export const storedNoticeSchema = z.object({ title: storedMessageSchema, content: storedMessageSchema });
export type StoredNotice = z.infer<typeof storedNoticeSchema>;

/** The stored notice of a JSON text (a message's `notice` column), when it is one; else null. */
export function readStoredNotice(json: string | null | undefined): StoredNotice | null {
  if (!json) return null;
  try {
    const r = storedNoticeSchema.safeParse(JSON.parse(json));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
