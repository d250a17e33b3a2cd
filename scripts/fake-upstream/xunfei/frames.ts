/*
 * What Spark checks in a request frame, and the error frames it answers with (Web.html § 错误码;
 * the messages are Spark's `<Kind>Error:(<time>) <detail>` form as seen in real answers). Routes
 * are Spark's documented path / domain pairs; a domain it does not have is "invalid model domain"
 * (10003), one on another version's path "no category route found" (10404).
 */

export const SPARK_ROUTES: Readonly<Record<string, { domain: string; maxTokens: number }>> = {
  '/v1.1/chat': { domain: 'lite', maxTokens: 4096 },
  '/v2.1/chat': { domain: 'generalv2', maxTokens: 8192 },
  '/v3.1/chat': { domain: 'generalv3', maxTokens: 8192 },
  '/chat/pro-128k': { domain: 'pro-128k', maxTokens: 4096 },
  '/v3.5/chat': { domain: 'generalv3.5', maxTokens: 8192 },
  '/chat/max-32k': { domain: 'max-32k', maxTokens: 8192 },
  '/v4.0/chat': { domain: '4.0Ultra', maxTokens: 8192 },
};
const DOMAINS = new Set(Object.values(SPARK_ROUTES).map((r) => r.domain));

export interface SparkErrorFrame {
  header: { code: number; message: string; sid: string; status: 2 };
}

const clock = () => new Date().toISOString().slice(11, 23);

export const sparkError = (code: number, kind: string, detail: string, sid: string): SparkErrorFrame => ({
  header: { code, message: `${kind}:(${clock()}) ${detail}`, sid, status: 2 },
});

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown, lo: number, hi: number) => Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi;

/** The error frame Spark answers `frame` with on `path` for app `appId`, or undefined when it takes it. */
export function checkSparkFrame(
  frame: unknown,
  path: string,
  appId: string,
  unlicensed: readonly string[],
  sid: string,
): SparkErrorFrame | undefined {
  const schema = (detail: string) => sparkError(10004, 'SchemaError', detail, sid);
  const param = (detail: string) => sparkError(10163, 'InvalidParamError', detail, sid);
  if (!isObject(frame) || !isObject(frame.header) || !isObject(frame.parameter) || !isObject(frame.payload))
    return schema('header, parameter and payload are required');
  if (typeof frame.header.app_id !== 'string' || frame.header.app_id === '') return schema('header.app_id is required');
  if (frame.header.app_id !== appId)
    return sparkError(10313, 'AppIdNoMatchError', 'app_id and api_key do not match', sid);
  const uid = frame.header.uid;
  if (uid !== undefined && (typeof uid !== 'string' || uid.length > 32)) return schema('header.uid: maxLength 32');
  const chat = frame.parameter.chat;
  if (!isObject(chat) || typeof chat.domain !== 'string') return schema('parameter.chat.domain is required');
  if (!DOMAINS.has(chat.domain)) return sparkError(10003, 'ClientMsgError', 'invalid model domain', sid);
  const route = SPARK_ROUTES[path];
  if (route?.domain !== chat.domain) return sparkError(10404, 'PathDomainError', 'no category route found', sid);
  if (unlicensed.includes(chat.domain)) return sparkError(11200, 'AppIdNoAuthError', 'tokens.total', sid);
  const t = chat.temperature;
  if (t !== undefined && (typeof t !== 'number' || t < 0 || t > 2)) return param('temperature must be in [0, 2]');
  if (chat.max_tokens !== undefined && !isInt(chat.max_tokens, 1, route.maxTokens))
    return param(`max_tokens must be an integer in [1, ${route.maxTokens}]`);
  if (chat.top_k !== undefined && !isInt(chat.top_k, 1, 6)) return param('top_k must be an integer in [1, 6]');
  const message = frame.payload.message;
  const text = isObject(message) ? message.text : undefined;
  if (!Array.isArray(text) || text.length === 0) return schema('payload.message.text must be a non-empty array');
  for (const [i, m] of text.entries()) {
    if (!isObject(m) || !['system', 'user', 'assistant'].includes(String(m.role)))
      return schema(`payload.message.text[${i}].role must be system, user or assistant`);
    if (typeof m.content !== 'string' || m.content === '')
      return schema(`payload.message.text[${i}].content must be a non-empty string`);
    if (m.role === 'system' && i !== 0) return schema('a system message may only come first');
  }
  if ((text.at(-1) as Json).role !== 'user') return schema("the last message must be the user's");
  return undefined;
}
