import type { FakeUpstream } from './server.ts';
import { isGeminiThinkingSignatureModel, thoughtSignatureFor } from './strict/signatures.ts';
import type { StrictValidator } from './strict/types.ts';
import { createKeyMemory, geminiUnits } from './key-memory.ts';
import { fakeNativePrompt, nativeBehaviour, PIECES, sendJson, startRecordingServer } from './native-http.ts';

/** Gemini's real error bodies (google.rpc.Status) for the statuses the fake can produce. */
export function geminiFailure(status: number) {
  const [s, message] =
    status === 400
      ? ['INVALID_ARGUMENT', 'Request contains an invalid argument.']
      : status === 403
        ? ['PERMISSION_DENIED', 'Permission denied: Consumer has been suspended.']
        : status === 429
          ? ['RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).']
          : status === 503
            ? ['UNAVAILABLE', 'The model is overloaded. Please try again later.']
            : ['INTERNAL', 'An internal error has occurred.'];
  return { error: { code: status, message, status: s } };
}

type Content = { role?: string; parts?: { text?: string; functionResponse?: unknown }[] };

/**
 * A fake Gemini API: `POST /{version}/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`, `:countTokens`, `GET /v1beta/models`. A functionCall answers
 * when tools are offered and the last turn is not a functionResponse (`+calls-N` in the model name:
 * until N results came back), signed (thoughtSignature) by thinking models; a thought part when
 * thinkingConfig.includeThoughts is set; `candidateCount` candidates. Candidates tokens: one per
 * text piece (3 thought tokens, 6 for a call), times the candidates.
 */
export function startFakeGemini(port = 0, opts: { validate?: StrictValidator } = {}): Promise<FakeUpstream> {
  const memory = createKeyMemory();
  return startRecordingServer(async (req, res, body) => {
    // Strict mode (strict/index.ts): what the real API refuses is refused before any answer.
    const refusal = opts.validate?.(req.url ?? '', req.headers, body);
    if (refusal) return sendJson(res, refusal.status, refusal.body);
    const url = new URL(req.url ?? '/', 'http://x');
    const key = String(req.headers['x-goog-api-key'] ?? url.searchParams.get('key') ?? '');
    if (req.method === 'GET' && /\/models$/.test(url.pathname))
      return sendJson(res, 200, {
        models: [
          {
            name: 'models/gemini-2.5-flash',
            displayName: 'Gemini 2.5 Flash',
            supportedGenerationMethods: ['generateContent'],
          },
        ],
      });
    const m = /^\/(v1beta|v1|v1alpha)\/models\/([^:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(
      url.pathname,
    );
    if (!m)
      return sendJson(res, 404, { error: { code: 404, message: `Not found: ${url.pathname}`, status: 'NOT_FOUND' } });
    const model = decodeURIComponent(m[2]);
    const b = nativeBehaviour(model, key);
    if (b.badKey)
      return sendJson(res, 400, {
        error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' },
      });
    if (b.failStatus) return sendJson(res, b.failStatus, geminiFailure(b.failStatus));
    if (m[3] === 'countTokens') {
      // Both forms of the count body; the same deterministic count the answers' usage reports.
      const r = (body.generateContentRequest ?? body) as { contents?: unknown; systemInstruction?: unknown };
      return sendJson(res, 200, { totalTokens: fakeNativePrompt(r.contents, r.systemInstruction) });
    }
    const contents = (body.contents ?? []) as Content[];
    const lastIsResponse = (contents.at(-1)?.parts ?? []).some((p) => p.functionResponse);
    const decls = ((body.tools ?? []) as { functionDeclarations?: { name?: string }[] }[]).flatMap(
      (t) => t.functionDeclarations ?? [],
    );
    const gen = (body.generationConfig ?? {}) as {
      maxOutputTokens?: number;
      candidateCount?: number;
      thinkingConfig?: { includeThoughts?: boolean; thinkingBudget?: number };
    };
    // `+calls-N` in the model name: keep calling a function until N results came back (a longer tool loop).
    const wantedCalls = Number(/(?:^|\+)calls-(\d+)/.exec(model)?.[1] ?? 1);
    const answered = contents.filter((c) => (c.parts ?? []).some((p) => p.functionResponse)).length;
    // Thinking models sign their calls: Gemini 3 always, 2.5 when thinking was asked and not turned off.
    const thinking =
      isGeminiThinkingSignatureModel(model) || (!!gen.thinkingConfig && gen.thinkingConfig.thinkingBudget !== 0);
    const parts: Record<string, unknown>[] = [];
    let thoughts = 0;
    let output: number;
    let finish = 'STOP';
    if (gen.thinkingConfig?.includeThoughts) {
      parts.push({ text: 'Let me think.', thought: true });
      thoughts = 3;
    }
    if (decls.length > 0 && (!lastIsResponse || answered < wantedCalls)) {
      // Gemini 3 signs each step's first call; strict/gemini.ts wants the signature back next turn.
      const signed = thinking ? { thoughtSignature: thoughtSignatureFor(String(decls[0].name)) } : {};
      parts.push({ functionCall: { name: decls[0].name, args: { location: 'Paris' } }, ...signed });
      output = 6;
    } else {
      const n = Math.min(PIECES.length, gen.maxOutputTokens ?? PIECES.length);
      for (const p of PIECES.slice(0, n)) parts.push({ text: p });
      output = n;
      if (n < PIECES.length) finish = 'MAX_TOKENS';
    }
    // candidateCount > 1: candidate i > 0 answers the same in upper case (W0 W1 ...), so tests can tell them apart.
    const count = Math.max(1, gen.candidateCount ?? 1);
    const candidateParts = Array.from({ length: count }, (_, i) =>
      i === 0
        ? parts
        : parts.map((p) => (typeof p.text === 'string' && !p.thought ? { text: p.text.toUpperCase() } : p)),
    );
    output *= count;
    const prompt = fakeNativePrompt(contents, body.systemInstruction) + b.cacheRead;
    const cacheRead = memory.cachedTokens(model, key, geminiUnits(body), prompt) ?? b.cacheRead;
    const usageMetadata = {
      promptTokenCount: prompt,
      candidatesTokenCount: output,
      totalTokenCount: prompt + output + thoughts,
      ...(cacheRead ? { cachedContentTokenCount: cacheRead } : {}),
      ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
    };
    const candidate = (ps: unknown[], index: number, last: boolean) => ({
      content: { role: 'model', parts: ps },
      index,
      ...(last ? { finishReason: finish } : {}),
    });
    const answer = (candidates: unknown[], last: boolean) => ({
      candidates,
      ...(last ? { usageMetadata } : { usageMetadata: { promptTokenCount: prompt } }),
      modelVersion: model,
      responseId: 'fake-resp-1',
    });
    if (m[3] === 'generateContent')
      return sendJson(
        res,
        200,
        answer(
          candidateParts.map((ps, i) => candidate(mergeText(ps), i, true)),
          true,
        ),
      );
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    // Candidates take turns part by part, as Gemini interleaves them; each one's last part carries its finishReason.
    for (let k = 0; k < parts.length; k++)
      for (let i = 0; i < count; i++) {
        const lastOfIt = k === parts.length - 1;
        const frame = answer([candidate([candidateParts[i][k]], i, lastOfIt)], lastOfIt && i === count - 1);
        res.write(`data: ${JSON.stringify(frame)}\r\n\r\n`);
      }
    res.end();
  }, port);
}

/** Non-streamed answers join adjacent plain text parts, as Gemini does. */
function mergeText(parts: Record<string, unknown>[]) {
  const out: Record<string, unknown>[] = [];
  for (const p of parts) {
    const last = out.at(-1);
    if (last && typeof last.text === 'string' && typeof p.text === 'string' && !last.thought && !p.thought)
      last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}
