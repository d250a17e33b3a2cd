import type { CanonicalPart } from '../../canonical/types.ts';
import { refusal } from '../../errors.ts';

type FilePart = Extract<CanonicalPart, { type: 'file' }>;

/*
 * Documents (the internal form's `file` parts: an Anthropic `document`, a Gemini `inlineData` PDF,
 * a Responses `input_file`) on an OpenAI-compatible upstream. OpenAI, Azure and OpenRouter read
 * OpenAI's file part; other vendors' chat APIs take no files, so a text document becomes its text
 * and anything else (a PDF) is refused rather than dropped: the model would answer without it.
 */

const TEXT_TYPES = /^(text\/|application\/(json|xml|x-yaml|yaml|javascript|csv)\b)/;

interface DataUrl {
  mime: string;
  base64: boolean;
  data: string;
}

function parseDataUrl(url: string | undefined): DataUrl | undefined {
  const m = url?.match(/^data:([^;,]*)((?:;[^;,]*)*),/);
  if (!m || !url) return undefined;
  return { mime: m[1].toLowerCase(), base64: /;base64/i.test(m[2]), data: url.slice(m[0].length) };
}

const EXTENSIONS: Record<string, string> = { 'application/pdf': 'pdf', 'text/plain': 'txt', 'text/markdown': 'md' };

/**
 * A file part for an upstream that reads them. OpenAI's `file_data` is inline data only: a document
 * given by URL is refused (OpenAI would be asked for a file it cannot fetch). `strict` (OpenAI
 * itself) also needs a `filename` ("Missing required parameter ... file_id" without one).
 */
export function fileForUpstream(part: FilePart, strict: boolean): FilePart {
  const data = part.file.file_data;
  if (data !== undefined && !data.startsWith('data:'))
    throw refusal(
      400,
      `A document given by URL (${data.slice(0, 100)}) cannot be sent to an OpenAI-compatible upstream, which reads inline documents only. Send the document's content (base64) instead.`,
      `OpenAI 兼容上游只接受内联文档，无法发送以 URL 给出的文档（${data.slice(0, 100)}）。请改为发送文档内容（base64）。`,
      'unsupported_content',
    );
  return strict ? withFilename(part) : part;
}

function withFilename(part: FilePart): FilePart {
  if (part.file.filename || !part.file.file_data) return part;
  const mime = parseDataUrl(part.file.file_data)?.mime ?? '';
  const ext = EXTENSIONS[mime] ?? (mime.split('/')[1]?.replace(/[^a-z0-9]/g, '') || 'bin');
  return { ...part, file: { ...part.file, filename: `document.${ext}` } };
}

/** A text document as a text part, for an upstream that takes no files; refuses any other document. */
export function documentAsText(part: FilePart): { type: 'text'; text: string } {
  const url = parseDataUrl(part.file.file_data);
  if (url && TEXT_TYPES.test(url.mime)) {
    const text = url.base64 ? Buffer.from(url.data, 'base64').toString('utf8') : decodeURIComponent(url.data);
    return { type: 'text', text: part.file.filename ? `[${part.file.filename}]\n${text}` : text };
  }
  const what = url?.mime || (part.file.file_id ? `file ${part.file.file_id}` : 'a file');
  throw refusal(
    400,
    `A document (${what}) cannot be sent to this upstream: its chat API takes no files. Send the document's text instead, or use a model on a channel that reads documents (OpenAI, Azure, OpenRouter, Anthropic, Gemini).`,
    `该上游的对话接口不接受文件，无法发送文档（${what}）。请改为发送文档的文字内容，或使用能读取文档的渠道（OpenAI、Azure、OpenRouter、Anthropic、Gemini）上的模型。`,
    'unsupported_content',
  );
}
