import { contentText } from '../shared/text-answer.ts';

/*
 * The canonical conversation as one Dify `chat-messages` body. Dify keeps history itself, by
 * conversation_id; a gateway client sends the whole conversation each time, so it is flattened into
 * the query with role labels as new-api does (a lone user turn goes as it is). Images ride in `files`:
 * an http(s) URL as `remote_url`, a data URL marked for upload (send() uploads it to /v1/files/upload
 * and puts the file id in its place).
 */

export interface DifyFile {
  type: 'image';
  transfer_method: 'remote_url' | 'local_file';
  url?: string;
  upload_file_id?: string;
}

interface Part {
  type?: string;
  text?: unknown;
  image_url?: { url?: unknown } | string;
}

const imageUrlOf = (p: Part): string | undefined => {
  const u = typeof p.image_url === 'string' ? p.image_url : p.image_url?.url;
  return typeof u === 'string' && u !== '' ? u : undefined;
};

/** A file entry for an image URL: remote for http(s), to upload for a data URL (send() finishes it). */
const fileOf = (url: string): DifyFile =>
  url.startsWith('data:')
    ? { type: 'image', transfer_method: 'local_file', url }
    : { type: 'image', transfer_method: 'remote_url', url };

const LABELS: Record<string, string> = { system: 'SYSTEM', developer: 'SYSTEM', assistant: 'ASSISTANT' };

/** The query and the image files of a canonical `messages` array. */
export function difyQuery(messages: unknown): { query: string; files: DifyFile[] } {
  const list = Array.isArray(messages) ? (messages as { role?: string; content?: unknown }[]) : [];
  const files: DifyFile[] = [];
  for (const m of list)
    if ((m.role === 'user' || m.role === undefined) && Array.isArray(m.content))
      for (const p of m.content as Part[]) {
        const url = p?.type === 'image_url' ? imageUrlOf(p) : undefined;
        if (url) files.push(fileOf(url));
      }
  if (list.length === 1 && (list[0].role ?? 'user') === 'user') return { query: contentText(list[0].content), files };
  const query = list
    .map((m) => {
      const text = contentText(m.content);
      const label = LABELS[m.role ?? ''] ?? 'USER';
      return `${label}: \n${m.role === 'tool' ? `Tool result: ${text}` : text}\n`;
    })
    .join('');
  return { query, files };
}
