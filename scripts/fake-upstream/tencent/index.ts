import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { nativeBehaviour, PIECES, sendJson, sleep, startRecordingServer } from '../native-http.ts';
import type { FakeUpstream } from '../server.ts';
import { checkTc3 } from './signature.ts';
import { type TencentRefusal, validateChat, validateEmbedding } from './validate.ts';

export { FAKE_TENCENT_SECRET_ID, FAKE_TENCENT_SECRET_KEY } from './signature.ts';

/** Fixed usage of every chat answer (the conformance entry bills it). */
export const TENCENT_USAGE = { PromptTokens: 11, CompletionTokens: 5, TotalTokens: 16 };

/** What a `+fail-400` model gets (Tencent answers it with HTTP 200, the error in Response.Error). */
export const TENCENT_FAIL_400: TencentRefusal = {
  code: 'InvalidParameterValue',
  message: 'The value of the parameter `Messages` is invalid: the content does not pass review.',
};

/** Tencent's error answer: always HTTP 200, `{"Response": {"Error": {Code, Message}, RequestId}}`. */
const tencentError = (res: ServerResponse, e: TencentRefusal) =>
  sendJson(res, 200, { Response: { Error: { Code: e.code, Message: e.message }, RequestId: randomUUID() } });

type Json = Record<string, unknown>;

/** A tool call of the first offered tool, when tools are offered and the last turn is the user's. */
function toolCallOf(body: Json): Json[] | undefined {
  const tools = body.Tools as { Function: { Name: string } }[] | undefined;
  const last = (body.Messages as { Role: string }[]).at(-1);
  if (!tools?.length || body.ToolChoice === 'none' || last?.Role !== 'user') return undefined;
  const name =
    body.ToolChoice === 'custom'
      ? (body.CustomTool as { Function: { Name: string } }).Function.Name
      : tools[0].Function.Name;
  return [{ Id: 'call_fake_0', Type: 'function', Function: { Name: name, Arguments: '{"city":"Paris"}' } }];
}

/**
 * A fake Tencent Cloud API 3.0 endpoint for Hunyuan (`POST /`, action in X-TC-Action, version
 * 2023-09-01): ChatCompletions (JSON, or SSE with `Stream: true`) and GetEmbedding. Every request's
 * TC3-HMAC-SHA256 signature is recomputed with the fake's SecretKey (signature.ts), the timestamp
 * window and required headers checked, the body checked as Tencent does (validate.ts); every
 * failure is HTTP 200 with Response.Error, as Tencent answers. Model tokens: `+fail-400` the
 * documented refusal, `+error-mid-stream` an ErrorMsg after two pieces; offered tools get a call.
 */
export function startFakeTencent(port = 0): Promise<FakeUpstream> {
  return startRecordingServer(async (req, res, body, raw) => {
    if (req.method !== 'POST' || (req.url ?? '/') !== '/')
      return tencentError(res, { code: 'InvalidAction', message: 'The API 3.0 endpoint takes POST / only.' });
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json'))
      return tencentError(res, { code: 'InvalidParameter', message: 'Content-Type must be application/json.' });
    for (const h of ['x-tc-action', 'x-tc-version', 'x-tc-timestamp', 'authorization'])
      if (!req.headers[h])
        return tencentError(res, {
          code: h === 'authorization' ? 'AuthFailure.InvalidAuthorization' : 'MissingParameter',
          message: `The request is missing a required parameter \`${h}\`.`,
        });
    const signed = checkTc3('POST', req.url ?? '/', req.headers, Buffer.from(raw));
    if (signed) return tencentError(res, signed);
    const region = req.headers['x-tc-region'];
    if (region !== undefined && !/^ap-[a-z]+(-\d+)?$/.test(String(region)))
      return tencentError(res, {
        code: 'UnsupportedRegion',
        message: `The region \`${String(region)}\` is not supported.`,
      });
    if (req.headers['x-tc-version'] !== '2023-09-01')
      return tencentError(res, { code: 'NoSuchVersion', message: 'The requested version does not exist.' });
    const action = String(req.headers['x-tc-action']);
    if (action === 'GetEmbedding') {
      const refused = validateEmbedding(body);
      if (refused) return tencentError(res, refused);
      const inputs = (body.Inputs as string[] | undefined) ?? [String(body.Input)];
      const tokens = inputs.reduce((n, s) => n + Math.ceil(s.length / 4), 0);
      return sendJson(res, 200, {
        Response: {
          Data: inputs.map((_, i) => ({ Embedding: [0.1 * (i + 1), 0.2, 0.3, 0.4], Index: i, Object: 'embedding' })),
          Usage: { PromptTokens: tokens, TotalTokens: tokens },
          RequestId: randomUUID(),
        },
      });
    }
    if (action !== 'ChatCompletions')
      return tencentError(res, { code: 'InvalidAction', message: `The action \`${action}\` does not exist.` });
    const refused = validateChat(body);
    if (refused) return tencentError(res, refused);
    const model = String(body.Model);
    if (nativeBehaviour(model, '').failStatus === 400) return tencentError(res, TENCENT_FAIL_400);
    const id = randomUUID();
    const created = Math.floor(Date.now() / 1000);
    const calls = toolCallOf(body);
    const note = '以上内容为AI生成，不代表开发者立场，请勿删除或修改本标记';
    if (body.Stream !== true)
      return sendJson(res, 200, {
        Response: {
          Id: id,
          Created: created,
          Note: note,
          Choices: [
            {
              Index: 0,
              Message: calls
                ? { Role: 'assistant', Content: '', ToolCalls: calls }
                : { Role: 'assistant', Content: PIECES.join('') },
              FinishReason: calls ? 'tool_calls' : 'stop',
            },
          ],
          Usage: TENCENT_USAGE,
          RequestId: id,
        },
      });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const event = (o: Json) => res.write(`data: ${JSON.stringify({ Note: note, Id: id, Created: created, ...o })}\n\n`);
    const usageAfter = (n: number) => ({ PromptTokens: 11, CompletionTokens: n, TotalTokens: 11 + n });
    if (calls) {
      event({
        Choices: [
          {
            Index: 0,
            Delta: { Role: 'assistant', Content: '', ToolCalls: calls.map((c, i) => ({ ...c, Index: i })) },
            FinishReason: '',
          },
        ],
        Usage: usageAfter(3),
      });
      event({
        Choices: [{ Index: 0, Delta: { Role: 'assistant', Content: '' }, FinishReason: 'tool_calls' }],
        Usage: usageAfter(5),
      });
      res.end();
      return;
    }
    const midError = model.includes('+error-mid-stream');
    for (const [i, piece] of PIECES.entries()) {
      if (midError && i === 2) {
        res.write(
          `data: ${JSON.stringify({ ErrorMsg: { Code: 2001, Msg: 'The service is busy, please try again later.' } })}\n\n`,
        );
        res.end();
        return;
      }
      const last = i === PIECES.length - 1;
      event({
        Choices: [{ Index: 0, Delta: { Role: 'assistant', Content: piece }, FinishReason: last ? 'stop' : '' }],
        Usage: usageAfter(i + 1),
      });
      await sleep(1);
    }
    res.end();
  }, port);
}
