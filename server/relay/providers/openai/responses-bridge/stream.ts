import { nowSeconds } from '../../../../db/time.ts';
import type { SseEvent, StreamConverter, Usage } from '../../types.ts';
import { usageChunk } from '../../shared/canonical-chunks.ts';
import type { ResponsesItem } from './shapes.ts';
import { usageToCanonical } from './usage.ts';
import { billingUsageOf, finishOf, type ResponseObject } from './response.ts';

interface Event {
  type?: string;
  delta?: string;
  arguments?: string;
  output_index?: number;
  summary_index?: number;
  item?: ResponsesItem;
  response?: ResponseObject & { error?: { message?: string; code?: string } | null };
  message?: string;
  code?: string;
}

/**
 * A Responses event stream -> chat completion chunks, for a chat client on a Responses-only
 * model: text and reasoning summary deltas as content and reasoning_content, each function_call
 * item as one streamed tool call (indexes in order of appearance), and response.completed (or
 * .incomplete) as the finish chunk, the usage chunk when the client asked for it, and [DONE].
 */
export function createResponsesToChatStream(model: string, clientWantsUsage: boolean): StreamConverter {
  let id = `chatcmpl-${Date.now()}`;
  let name = model;
  let created = nowSeconds();
  let usage: Usage | undefined;
  let done = false;
  const text: string[] = [];
  /** output_index -> chat tool-call index, and whether arguments came as deltas. */
  const calls = new Map<number, { index: number; streamed: boolean }>();

  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: object = {}) =>
    JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model: name,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    });

  const finish = (r: ResponseObject): string[] => {
    done = true;
    usage = billingUsageOf(r.usage) ?? usage;
    const out = [chunk({}, finishOf(r, calls.size > 0))];
    if (clientWantsUsage && r.usage) out.push(usageChunk(id, created, name, usageToCanonical(r.usage)));
    out.push('[DONE]');
    return out;
  };

  const fail = (message: string, type = 'upstream_error'): string[] => {
    done = true;
    return [JSON.stringify({ error: { message, type } }), '[DONE]'];
  };

  return {
    push(e: SseEvent): string[] {
      if (done) return [];
      let ev: Event;
      try {
        ev = JSON.parse(e.data) as Event;
      } catch {
        return [];
      }
      switch (ev.type) {
        case 'response.created': {
          const r = ev.response ?? {};
          if (r.id) id = `chatcmpl-${r.id.replace(/^resp_/, '')}`;
          if (r.model) name = r.model;
          if (r.created_at) created = r.created_at;
          return [chunk({ role: 'assistant', content: '' })];
        }
        case 'response.output_text.delta':
          if (!ev.delta) return [];
          text.push(ev.delta);
          return [chunk({ content: ev.delta })];
        case 'response.reasoning_summary_part.added':
          // Summary parts after the first are new paragraphs of the same reasoning.
          if (!ev.summary_index) return [];
          text.push('\n\n');
          return [chunk({ reasoning_content: '\n\n' })];
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta':
          if (!ev.delta) return [];
          text.push(ev.delta);
          return [chunk({ reasoning_content: ev.delta })];
        case 'response.output_item.added': {
          const item = ev.item;
          if (item?.type !== 'function_call') return [];
          const index = calls.size;
          calls.set(ev.output_index ?? index, { index, streamed: false });
          const call = { index, id: item.call_id, type: 'function', function: { name: item.name, arguments: '' } };
          return [chunk({ tool_calls: [call] })];
        }
        case 'response.function_call_arguments.delta': {
          const call = calls.get(ev.output_index ?? -1);
          if (!call || !ev.delta) return [];
          call.streamed = true;
          text.push(ev.delta);
          return [chunk({ tool_calls: [{ index: call.index, function: { arguments: ev.delta } }] })];
        }
        case 'response.output_item.done': {
          // A provider that sends a call's arguments only whole, with the finished item.
          const call = calls.get(ev.output_index ?? -1);
          const args = ev.item?.arguments;
          if (!call || call.streamed || !args) return [];
          text.push(args);
          return [chunk({ tool_calls: [{ index: call.index, function: { arguments: args } }] })];
        }
        case 'response.completed':
        case 'response.incomplete':
          return finish(ev.response ?? {});
        case 'response.failed':
          usage = billingUsageOf(ev.response?.usage) ?? usage;
          return fail(ev.response?.error?.message ?? 'The upstream response failed.', ev.response?.error?.code);
        case 'error':
          return fail(ev.message ?? 'The upstream stream failed.', ev.code ?? undefined);
        default:
          return [];
      }
    },
    end: () => (done ? [] : ['[DONE]']),
    usage: () => usage,
    producedText: () => text.join(''),
  };
}
