import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendJson, sleep, startRecordingServer } from '../native-http.ts';
import type { FakeUpstream } from '../server.ts';

/*
 * A strict fake of one Dify agent app's service API (type 37), as Dify documents it:
 * - `POST /v1/chat-messages` with the app's key as bearer: `inputs` (object), a non-empty `query`,
 *   `response_mode` streaming|blocking (an agent app refuses blocking), a non-empty `user`, an optional
 *   known `conversation_id`, `files` (image, remote_url with url or local_file with an uploaded id).
 *   Streams `data: {...}` events: agent_thought, five agent_message deltas, message_end with usage,
 *   `event: ping`; an `error` event for a failed generation.
 * - `POST /v1/files/upload` (multipart `file` + `user`): 201 with the file's id.
 * Errors are `{code, message, status}` with that HTTP status (401 unauthorized for a wrong key).
 * Behaviour by the `user` value (the gateway sends its model name there): ending `+fail-400` gets an
 * error event (completion_request_error, 400); `+fail-mid` two deltas then an error event.
 */

export const DIFY_ERROR = 'Model gpt-4o-mini credentials is not initialized.';
export const DIFY_USAGE = { prompt_tokens: 13, completion_tokens: 5 };
const PIECES = ['w0 ', 'w1 ', 'w2 ', 'w3 ', 'w4 '];

const difyError = (res: ServerResponse, status: number, code: string, message: string) =>
  sendJson(res, status, { code, message, status });

const usage = () => ({
  ...DIFY_USAGE,
  total_tokens: DIFY_USAGE.prompt_tokens + DIFY_USAGE.completion_tokens,
  prompt_unit_price: '0.001',
  completion_unit_price: '0.002',
  total_price: '0.0001',
  currency: 'USD',
  latency: 0.5,
});

interface File {
  type?: unknown;
  transfer_method?: unknown;
  url?: unknown;
  upload_file_id?: unknown;
}

/** Why Dify would refuse these files, or undefined. */
function badFile(files: unknown, uploaded: Set<string>): string | undefined {
  if (files === undefined) return undefined;
  if (!Array.isArray(files)) return 'files must be a list';
  for (const f of files as File[]) {
    if (!['image', 'document', 'audio', 'video', 'custom'].includes(String(f?.type))) return 'Invalid file type';
    if (f.transfer_method === 'remote_url') {
      if (typeof f.url !== 'string' || !/^https?:\/\//.test(f.url)) return 'Invalid file url';
    } else if (f.transfer_method === 'local_file') {
      if (typeof f.upload_file_id !== 'string' || !uploaded.has(f.upload_file_id)) return 'Invalid upload file id';
    } else return 'Invalid transfer method';
  }
  return undefined;
}

export function startFakeDify(appKey: string): Promise<FakeUpstream> {
  const uploaded = new Set<string>();
  const conversations = new Set<string>();
  return startRecordingServer(async (req, res, body, raw) => {
    if (req.headers.authorization !== `Bearer ${appKey}`)
      return difyError(res, 401, 'unauthorized', 'Access token is invalid');
    if (req.method === 'POST' && req.url === '/v1/files/upload') {
      const type = String(req.headers['content-type'] ?? '');
      if (!type.startsWith('multipart/form-data'))
        return difyError(res, 400, 'no_file_uploaded', 'Please upload your file.');
      const form = await new Request('http://fake/', {
        method: 'POST',
        headers: { 'content-type': type },
        body: raw,
      }).formData();
      const file = form.get('file');
      if (!(file instanceof Blob)) return difyError(res, 400, 'no_file_uploaded', 'Please upload your file.');
      if (!file.type.startsWith('image/'))
        return difyError(res, 415, 'unsupported_file_type', 'File type not allowed.');
      if (typeof form.get('user') !== 'string' || form.get('user') === '')
        return difyError(res, 400, 'invalid_param', 'user is required');
      const id = randomUUID();
      uploaded.add(id);
      return sendJson(res, 201, {
        id,
        name: (file as { name?: string }).name ?? 'file',
        size: file.size,
        extension: file.type.replace('image/', ''),
        mime_type: file.type,
        created_by: randomUUID(),
        created_at: Math.floor(Date.now() / 1000),
      });
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat-messages') return difyError(res, 404, 'not_found', 'Not Found');
    if (!body.inputs || typeof body.inputs !== 'object' || Array.isArray(body.inputs))
      return difyError(res, 400, 'invalid_param', 'inputs is required in input form');
    if (typeof body.query !== 'string' || body.query.trim() === '')
      return difyError(res, 400, 'invalid_param', 'query is required');
    if (body.response_mode !== 'streaming' && body.response_mode !== 'blocking')
      return difyError(res, 400, 'invalid_param', 'response_mode must be streaming or blocking');
    if (body.response_mode === 'blocking')
      return difyError(res, 400, 'app_unavailable', 'Agent Chat App does not support blocking mode');
    if (typeof body.user !== 'string' || body.user === '')
      return difyError(res, 400, 'invalid_param', 'user is required');
    if (
      body.conversation_id !== undefined &&
      body.conversation_id !== '' &&
      !conversations.has(String(body.conversation_id))
    )
      return difyError(res, 404, 'not_found', 'Conversation Not Exists.');
    const fileError = badFile(body.files, uploaded);
    if (fileError) return difyError(res, 400, 'invalid_param', fileError);

    const conversation_id = randomUUID();
    conversations.add(conversation_id);
    const ids = { task_id: randomUUID(), message_id: randomUUID(), id: randomUUID(), conversation_id };
    const created_at = Math.floor(Date.now() / 1000);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (event: Record<string, unknown>) =>
      res.write(`data: ${JSON.stringify({ ...event, ...ids, created_at })}\n\n`);
    const fail = (status: number, code: string, message: string) => {
      send({ event: 'error', status, code, message });
      res.end();
    };
    res.write('event: ping\n\n');
    if (body.user.endsWith('+fail-400')) return fail(400, 'completion_request_error', DIFY_ERROR);
    send({
      event: 'agent_thought',
      position: 1,
      thought: '',
      observation: '',
      tool: '',
      tool_input: '',
      message_files: [],
    });
    for (const [i, answer] of PIECES.entries()) {
      if (i === 2 && body.user.endsWith('+fail-mid')) return fail(500, 'internal_server_error', 'The app broke.');
      send({ event: 'agent_message', answer });
      await sleep(2);
    }
    send({ event: 'message_end', metadata: { usage: usage(), retriever_resources: [] } });
    res.end();
  });
}
