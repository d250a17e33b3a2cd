import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { sendJson } from '../native-http.ts';

/*
 * DashScope's native API as the fake answers it: the async text-to-image task (submitted with
 * `X-DashScope-Async: enable`, PENDING -> RUNNING -> SUCCEEDED over three polls, FAILED with
 * DataInspectionFailed for a model `<name>+fail-task`) and text rerank. Errors as
 * `{code, message, request_id}` with DashScope's statuses.
 */

type Json = Record<string, unknown>;

export const nativeError = (res: ServerResponse, status: number, code: string, message: string) =>
  sendJson(res, status, { code, message, request_id: randomUUID() });

const IMAGE_MODELS = /^(wanx-v1|wanx2\.[01]-t2i-(turbo|plus)|wan2\.[25]-t2i-(preview|plus|flash)|flux-(schnell|dev))$/;
const SIZE = /^(\d{3,4})\*(\d{3,4})$/;
export const ALI_TASK_FAILURE = {
  code: 'DataInspectionFailed',
  message: 'Output data may contain inappropriate content.',
};

interface Task {
  polls: number;
  n: number;
  fail: boolean;
}

/** Answers the submit and poll calls; `base` is the fake's URL (the images it serves). */
export function createImageTasks(base: () => string) {
  const tasks = new Map<string, Task>();
  return {
    submit(res: ServerResponse, body: Json, asyncHeader: string | undefined) {
      if (asyncHeader !== 'enable')
        return nativeError(res, 403, 'AccessDenied', 'current user api does not support synchronous calls');
      const [model, behaviour] = String(body.model ?? '').split('+');
      if (!model) return nativeError(res, 400, 'InvalidParameter', 'Model not exist.');
      if (!IMAGE_MODELS.test(model)) return nativeError(res, 400, 'InvalidParameter', 'Model not exist.');
      for (const k of Object.keys(body))
        if (!['model', 'input', 'parameters', 'response_format'].includes(k))
          return nativeError(res, 400, 'InvalidParameter', `Unknown field: ${k}`);
      const input = body.input as Json | undefined;
      if (typeof input?.prompt !== 'string' || input.prompt.trim() === '')
        return nativeError(res, 400, 'InvalidParameter', 'Field required: input.prompt');
      const p = (body.parameters ?? {}) as Json;
      const n = p.n === undefined ? 4 : p.n;
      if (!Number.isInteger(n) || (n as number) < 1 || (n as number) > 4)
        return nativeError(res, 400, 'InvalidParameter', 'The n parameter must be between 1 and 4');
      if (p.size !== undefined) {
        const m = SIZE.exec(String(p.size));
        if (!m || [m[1], m[2]].some((d) => Number(d) < 512 || Number(d) > 1440))
          return nativeError(
            res,
            400,
            'InvalidParameter',
            'The size parameter is invalid, it should be like 1024*1024',
          );
      }
      const id = randomUUID();
      tasks.set(id, { polls: 0, n: n as number, fail: behaviour === 'fail-task' });
      return sendJson(res, 200, { output: { task_status: 'PENDING', task_id: id }, request_id: randomUUID() });
    },

    poll(res: ServerResponse, id: string) {
      const task = tasks.get(id);
      const request_id = randomUUID();
      if (!task) return sendJson(res, 200, { request_id, output: { task_id: id, task_status: 'UNKNOWN' } });
      task.polls++;
      const times = { submit_time: '2026-01-01 00:00:00.000', scheduled_time: '2026-01-01 00:00:00.100' };
      if (task.polls < 3)
        return sendJson(res, 200, {
          request_id,
          output: { task_id: id, task_status: task.polls === 1 ? 'PENDING' : 'RUNNING', ...times },
        });
      if (task.fail)
        return sendJson(res, 200, {
          request_id,
          output: {
            task_id: id,
            task_status: 'FAILED',
            ...times,
            end_time: '2026-01-01 00:00:05.000',
            ...ALI_TASK_FAILURE,
          },
        });
      return sendJson(res, 200, {
        request_id,
        output: {
          task_id: id,
          task_status: 'SUCCEEDED',
          ...times,
          end_time: '2026-01-01 00:00:05.000',
          results: Array.from({ length: task.n }, (_, i) => ({ url: `${base()}/images/${id}-${i}.png` })),
          task_metrics: { TOTAL: task.n, SUCCEEDED: task.n, FAILED: 0 },
        },
        usage: { image_count: task.n },
      });
    },
  };
}

export const ALI_RERANK_TOKENS_PER_DOC = 7;

export function rerank(res: ServerResponse, body: Json) {
  const model = String(body.model ?? '');
  if (!/^gte-rerank(-v2)?$/.test(model)) return nativeError(res, 400, 'InvalidParameter', 'Model not exist.');
  const input = body.input as Json | undefined;
  if (typeof input?.query !== 'string' || input.query === '')
    return nativeError(res, 400, 'InvalidParameter', 'Field required: input.query');
  const docs = input.documents;
  if (!Array.isArray(docs) || docs.length === 0 || !docs.every((d) => typeof d === 'string'))
    return nativeError(res, 400, 'InvalidParameter', 'Field required: input.documents, a list of strings');
  const p = (body.parameters ?? {}) as Json;
  if (p.top_n !== undefined && !(Number.isInteger(p.top_n) && (p.top_n as number) > 0))
    return nativeError(res, 400, 'InvalidParameter', 'top_n must be a positive integer');
  const ranked = docs
    .map((text, index) => ({ index, relevance_score: 1 / (index + 2), text: text as string }))
    .slice(0, (p.top_n as number | undefined) ?? docs.length);
  return sendJson(res, 200, {
    output: {
      results: ranked.map((r) => ({
        index: r.index,
        relevance_score: r.relevance_score,
        ...(p.return_documents === true ? { document: { text: r.text } } : {}),
      })),
    },
    usage: { total_tokens: ALI_RERANK_TOKENS_PER_DOC * docs.length },
    request_id: randomUUID(),
  });
}
