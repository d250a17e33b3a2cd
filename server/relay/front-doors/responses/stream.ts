import { newId, type ResponsesItem } from '../../providers/openai/responses-bridge/shapes.ts';
import { customInput } from '../../providers/openai/responses-bridge/tools-and-format.ts';
import type { StreamConverter } from '../../providers/types.ts';
import { type CanonicalChunk, reencodeStream } from '../canonical-stream.ts';
import { callName } from './client-tools.ts';
import { keepTurn, responseObject, responsesUsage, type ResponsesTurn, statusOf } from './turn.ts';

/** An output item being streamed, by its place in `output`. */
interface OpenText {
  index: number;
  id: string;
  text: string;
}
interface OpenCall extends OpenText {
  callId: string;
  /** The canonical (flat) name, as kept for previous_response_id. */
  name: string;
  /** The name as the client knows it: with its namespace for a namespaced tool (client-tools.ts). */
  wire: { name: string; namespace?: string };
  custom: boolean;
}

/**
 * Canonical chat chunks (any adapter's converter) -> the Responses event stream, as the openai
 * SDK's responses.stream() accumulates it: response.created and .in_progress first; one output
 * item per kind of delta (a reasoning item with one summary part, a message with one output_text
 * part, one function_call per tool-call index — keyed by index, so a provider repeating the id
 * opens nothing new), each with its added/delta/done events; then response.completed (or
 * .incomplete for a length cut) with the whole output and usage. Every event has sequence_number.
 */
export function toResponsesStream(inner: StreamConverter, t: ResponsesTurn, model: string): StreamConverter {
  let seq = 0;
  const ev = (type: string, data: object) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`;
  let started = false;
  let finished = false;
  const output: ResponsesItem[] = [];
  let reasoning: OpenText | undefined;
  let message: OpenText | undefined;
  const calls = new Map<number, OpenCall>();
  let finish: string | null | undefined;
  let reasoningTokens: number | undefined;
  // The answer as one assistant message, kept for previous_response_id.
  const said = { content: '', reasoning: '' };

  const start = (out: string[]) => {
    if (started) return;
    started = true;
    const response = responseObject(t, model, { status: 'in_progress' });
    out.push(ev('response.created', { response }), ev('response.in_progress', { response }));
  };

  const open = (out: string[], item: ResponsesItem): number => {
    const index = output.length;
    output.push(item);
    out.push(ev('response.output_item.added', { output_index: index, item }));
    return index;
  };

  const closeReasoning = (out: string[]) => {
    if (!reasoning) return;
    const { index, id, text } = reasoning;
    const part = { type: 'summary_text', text };
    const at = { item_id: id, output_index: index, summary_index: 0 };
    out.push(ev('response.reasoning_summary_text.done', { ...at, text }));
    out.push(ev('response.reasoning_summary_part.done', { ...at, part }));
    output[index] = { type: 'reasoning', id, summary: [part] };
    out.push(ev('response.output_item.done', { output_index: index, item: output[index] }));
    reasoning = undefined;
  };

  const closeMessage = (out: string[]) => {
    if (!message) return;
    const { index, id, text } = message;
    const part = { type: 'output_text', text, annotations: [], logprobs: [] };
    const at = { item_id: id, output_index: index, content_index: 0 };
    out.push(ev('response.output_text.done', { ...at, text, logprobs: [] }));
    out.push(ev('response.content_part.done', { ...at, part }));
    output[index] = { type: 'message', id, status: 'completed', role: 'assistant', content: [part] };
    out.push(ev('response.output_item.done', { output_index: index, item: output[index] }));
    message = undefined;
  };

  const closeCall = (out: string[], c: OpenCall) => {
    const at = { item_id: c.id, output_index: c.index };
    if (c.custom) {
      // The emulating function's arguments hold the input: it is known whole only now.
      const input = customInput(c.text);
      out.push(ev('response.custom_tool_call_input.delta', { ...at, delta: input }));
      out.push(ev('response.custom_tool_call_input.done', { ...at, input }));
      output[c.index] = {
        type: 'custom_tool_call',
        id: c.id,
        status: 'completed',
        call_id: c.callId,
        ...c.wire,
        input,
      };
    } else {
      out.push(ev('response.function_call_arguments.done', { ...at, name: c.wire.name, arguments: c.text }));
      output[c.index] = {
        type: 'function_call',
        id: c.id,
        status: 'completed',
        call_id: c.callId,
        ...c.wire,
        arguments: c.text,
      };
    }
    out.push(ev('response.output_item.done', { output_index: c.index, item: output[c.index] }));
  };

  const chunk = (c: CanonicalChunk, out: string[]) => {
    start(out);
    const u = (c as { usage?: { completion_tokens_details?: { reasoning_tokens?: number } } }).usage;
    reasoningTokens = u?.completion_tokens_details?.reasoning_tokens ?? reasoningTokens;
    for (const ch of c.choices ?? []) {
      if (((ch as { index?: number }).index ?? 0) !== 0) continue;
      const d = ch.delta ?? {};
      if (d.reasoning_content) {
        closeMessage(out);
        if (!reasoning) {
          const id = newId('rs');
          reasoning = { index: open(out, { type: 'reasoning', id, summary: [] }), id, text: '' };
          const part = { type: 'summary_text', text: '' };
          out.push(
            ev('response.reasoning_summary_part.added', {
              item_id: id,
              output_index: reasoning.index,
              summary_index: 0,
              part,
            }),
          );
        }
        reasoning.text += d.reasoning_content;
        said.reasoning += d.reasoning_content;
        out.push(
          ev('response.reasoning_summary_text.delta', {
            item_id: reasoning.id,
            output_index: reasoning.index,
            summary_index: 0,
            delta: d.reasoning_content,
          }),
        );
      }
      if (d.content) {
        closeReasoning(out);
        if (!message) {
          const id = newId('msg');
          message = {
            index: open(out, { type: 'message', id, status: 'in_progress', role: 'assistant', content: [] }),
            id,
            text: '',
          };
          const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
          out.push(
            ev('response.content_part.added', { item_id: id, output_index: message.index, content_index: 0, part }),
          );
        }
        message.text += d.content;
        said.content += d.content;
        out.push(
          ev('response.output_text.delta', {
            item_id: message.id,
            output_index: message.index,
            content_index: 0,
            delta: d.content,
            logprobs: [],
          }),
        );
      }
      for (const tc of d.tool_calls ?? []) {
        closeReasoning(out);
        closeMessage(out);
        const i = tc.index ?? 0;
        let call = calls.get(i);
        if (!call) {
          const name = tc.function?.name ?? '';
          const custom = t.custom.has(name);
          const id = newId(custom ? 'ctc' : 'fc');
          const callId = tc.id ?? newId('call');
          const wire = callName(name, t.namespaced);
          const item: ResponsesItem = custom
            ? { type: 'custom_tool_call', id, status: 'in_progress', call_id: callId, ...wire, input: '' }
            : { type: 'function_call', id, status: 'in_progress', call_id: callId, ...wire, arguments: '' };
          call = { index: open(out, item), id, callId, name, wire, custom, text: '' };
          calls.set(i, call);
        }
        const delta = tc.function?.arguments;
        if (delta) {
          call.text += delta;
          if (!call.custom)
            out.push(
              ev('response.function_call_arguments.delta', { item_id: call.id, output_index: call.index, delta }),
            );
        }
      }
      if (ch.finish_reason) finish = ch.finish_reason;
    }
  };

  const end = (out: string[]) => {
    if (finished) return;
    finished = true;
    start(out);
    closeReasoning(out);
    closeMessage(out);
    for (const c of calls.values()) closeCall(out, c);
    const usage = inner.usage();
    const state = statusOf(finish);
    const response = responseObject(t, model, {
      ...state,
      output,
      usage: responsesUsage(usage && { ...usage, reasoningTokens: usage.reasoningTokens ?? reasoningTokens }),
    });
    out.push(ev(state.status === 'completed' ? 'response.completed' : 'response.incomplete', { response }));
    keepTurn(t, {
      content: said.content || null,
      reasoning_content: said.reasoning || undefined,
      tool_calls: [...calls.values()].map((c) => ({
        id: c.callId,
        type: 'function',
        function: { name: c.name, arguments: c.text },
      })),
    });
  };

  const fail = (message: string, code = 'server_error'): string[] => {
    const out: string[] = [];
    if (finished) return out;
    finished = true;
    start(out);
    // The failed response first (the SDK's snapshot), then the error event (the SDK raises it).
    const response = responseObject(t, model, { status: 'failed', output, error: { code, message } });
    out.push(ev('response.failed', { response }));
    out.push(ev('error', { code, message, param: null }));
    return out;
  };

  return reencodeStream(inner, {
    chunk,
    error(e, out) {
      out.push(...fail(e.message ?? 'upstream error', e.type ?? 'server_error'));
    },
    finish: end,
    errorFrames: (message) => fail(message),
  });
}
