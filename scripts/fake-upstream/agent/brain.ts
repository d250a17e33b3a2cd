/*
 * The scripted agent: from a request's conversation alone (conversation.ts), the next move of the task in
 * task.ts, as a model would make it: find the client's file-reading tool among the tools it declared (by
 * name and schema: Claude Code's Read, Gemini/Qwen's read_file, OpenCode's read, Codex's view_image for
 * pictures and its shell tool running `cat` for text), read the files one after the other, and answer with
 * the code word once every result came back (the picture's size read from the image bytes that came back).
 * A later step answers only when the earlier turns are in the prefix. Requests without a task prompt (titles,
 * memory, routing checks) get a short answer, JSON when the client asked for JSON.
 */
import {
  type Image,
  type Item,
  type Json,
  type Move,
  pngSize,
  sampleOf,
  type ToolSpec,
  type Turn,
} from './conversation.ts';
import { firstAnswer, stepAnswer, TASK_MARK } from './task.ts';

const READ_NAMES = ['read', 'read_file', 'readfile', 'file_read', 'view'];
const IMAGE_NAMES = ['view_image'];
const SHELL_NAMES = ['exec_command', 'shell', 'bash', 'run_shell_command', 'local_shell'];
const PATH_PROP = /^(file_?path|absolute_?path|path|filename)$/i;

const propsOf = (t: ToolSpec) => Object.keys((t.schema.properties ?? {}) as Json);

/** The argument of a tool that takes the file's path. */
function pathProp(t: ToolSpec): string | undefined {
  const props = propsOf(t);
  const required = Array.isArray(t.schema.required) ? (t.schema.required as string[]) : [];
  return props.find((p) => PATH_PROP.test(p)) ?? required.find((p) => /path|file/i.test(p));
}

const named = (tools: ToolSpec[], names: string[]) =>
  tools.find((t) => names.includes(t.name.toLowerCase()) && pathProp(t) !== undefined);

function shellTool(tools: ToolSpec[]): { tool: ToolSpec; prop: string } | undefined {
  for (const t of tools) {
    if (!SHELL_NAMES.includes(t.name.toLowerCase())) continue;
    const prop = propsOf(t).find((p) => p === 'cmd' || p === 'command');
    if (prop) return { tool: t, prop };
  }
  return undefined;
}

/** How this client reads a file: the tool and its arguments, or undefined when it declared no such tool. */
export function readCall(tools: ToolSpec[], path: string): { name: string; args: Json } | undefined {
  const picture = path.endsWith('.png');
  const reader = (picture ? named(tools, IMAGE_NAMES) : undefined) ?? named(tools, READ_NAMES);
  if (reader) return { name: reader.name, args: { [pathProp(reader)!]: path } };
  const shell = shellTool(tools);
  if (!shell) return undefined;
  const props = (shell.tool.schema.properties ?? {}) as Json;
  const isList = (props[shell.prop] as Json | undefined)?.type === 'array';
  return { name: shell.tool.name, args: { [shell.prop]: isList ? ['bash', '-lc', `cat ${path}`] : `cat ${path}` } };
}

const FILE_PATH = /\/[^\s'"`<>|]+\.(?:txt|png)\b/g;
const pathsIn = (s: string) => [...s.matchAll(FILE_PATH)].map((m) => m[0]);
/** The file a call asked for (whatever argument holds it). */
const pathOfCall = (args: Json) => pathsIn(JSON.stringify(Object.values(args)))[0];

interface Read {
  path: string;
  call: Extract<Item, { kind: 'call' }>;
  result?: Extract<Item, { kind: 'result' }>;
  /** Images that came back for it: in its result, or in user content that followed it. */
  images: Image[];
}

/**
 * The task prompts: user text from the task mark to the end of its line, with their place in the items. The
 * mark may follow other text: a gateway may join a client's text parts into one (Gemini CLI sends its
 * session context and the prompt as two parts), and OpenCode quotes the prompt it was given.
 */
function taskPrompts(items: Item[]) {
  const out: { at: number; text: string }[] = [];
  items.forEach((it, at) => {
    if (it.kind !== 'user') return;
    const from = it.text.indexOf(TASK_MARK);
    if (from >= 0) out.push({ at, text: it.text.slice(from).split('\n')[0].trim() });
  });
  return out;
}

function readsAfter(items: Item[], from: number): Read[] {
  const reads: Read[] = [];
  for (let i = from; i < items.length; i++) {
    const it = items[i];
    if (it.kind === 'call') {
      const path = pathOfCall(it.args);
      if (path) reads.push({ path, call: it, images: [] });
    } else if (it.kind === 'result') {
      const r = reads.find((x) => x.call.id === it.id);
      if (r) {
        r.result = it;
        r.images.push(...it.images);
      }
    } else if (it.kind === 'user' && it.images.length) reads.at(-1)?.images.push(...it.images);
  }
  return reads;
}

const ALPHA = /ALPHA-[0-9a-f]{6}/;
const BRAVO = /BRAVO-[0-9a-f]{6}/;

/** The next move of the first step: read the next file the results name, or answer. */
function firstStep(turn: Turn, prompt: { at: number; text: string }): Move {
  const reads = readsAfter(turn.items, prompt.at + 1);
  const texts = [prompt.text, ...reads.map((r) => r.result?.text ?? '')];
  const wanted = texts.flatMap(pathsIn);
  const next = wanted.find((p) => !reads.some((r) => r.path === p));
  if (next) {
    const call = readCall(turn.tools, next);
    if (!call)
      return {
        thinking: `I need to read ${next}, but no file-reading tool was declared.`,
        text: `NO FILE TOOL among: ${turn.tools.map((t) => t.name).join(', ')}`,
      };
    return { thinking: `The next file to read is ${next}; I will use ${call.name}.`, call };
  }
  const all = reads.map((r) => r.result?.text ?? '').join('\n');
  const first = ALPHA.exec(all)?.[0];
  const second = BRAVO.exec(all)?.[0];
  const picture = reads.find((r) => r.path.endsWith('.png'));
  const size = picture?.images.map((i) => pngSize(i.data)).find(Boolean);
  const missing = [
    !first && 'the first half (notes.txt)',
    !second && 'the second half (second.txt)',
    !size &&
      `the picture (${picture ? `its result held no PNG: "${(picture.result?.text ?? '').slice(0, 80)}"` : 'never read'})`,
  ].filter(Boolean);
  if (missing.length)
    return { thinking: 'Some results did not come back.', text: `CODE WORD UNKNOWN: missing ${missing.join(', ')}` };
  const word = `${first}-${second}-${size!.width}x${size!.height}`;
  return { thinking: `I have all three parts: ${word}.`, text: firstAnswer(word) };
}

/** A later step: the code word again, when the earlier turns are still in the prefix. */
function laterStep(turn: Turn, prompts: { at: number; text: string }[], step: number): Move {
  const prefix = turn.items.slice(0, prompts.at(-1)!.at);
  const results = prefix.filter((i) => i.kind === 'result').map((i) => i.text);
  const answers = prefix.filter((i) => i.kind === 'assistant').map((i) => i.text);
  const word = answers.map((a) => /CODE WORD: (\S+)/.exec(a)?.[1]).find(Boolean);
  const missing = [
    !prompts.some((p) => /Read the file/.test(p.text)) && 'the first prompt',
    !results.some((r) => ALPHA.test(r)) && "notes.txt's result",
    !results.some((r) => BRAVO.test(r)) && "second.txt's result",
    !word && 'the first answer',
    ...Array.from({ length: step - 2 }, (_, k) => k + 2)
      .filter((s) => !answers.some((a) => a.includes(`STEP ${s} CODE WORD`)))
      .map((s) => `the answer to step ${s}`),
  ].filter(Boolean);
  if (missing.length)
    return { thinking: 'The earlier turns are not all here.', text: `PREFIX MISSING: ${missing.join(', ')}` };
  return { thinking: `The code word from before is ${word}.`, text: stepAnswer(step, word!) };
}

export function decide(turn: Turn): Move {
  const prompts = taskPrompts(turn.items);
  const last = prompts.at(-1);
  // Without tools it is a side request too (OpenCode's title for the conversation carries the prompt).
  if (!last || turn.tools.length === 0 || laterUserWords(turn.items, last.at)) return sideAnswer(turn);
  const step = /Step (\d+):/.exec(last.text);
  return step ? laterStep(turn, prompts, Number(step[1])) : firstStep(turn, last);
}

/**
 * Whether the user said something after the task prompt: a side request of the client (a title, a memory
 * note) that carries the conversation. User content right after tool results is not the user's: clients and
 * gateways put a tool's pictures there; `<system-reminder>`-style notes are the client's too.
 */
function laterUserWords(items: Item[], from: number): boolean {
  let afterResults = false;
  for (let i = from + 1; i < items.length; i++) {
    const it = items[i];
    if (it.kind === 'result') afterResults = true;
    else if (it.kind !== 'user') afterResults = false;
    else if (!afterResults && it.text.trim() !== '' && !it.text.trimStart().startsWith('<')) return true;
  }
  return false;
}

function sideAnswer(turn: Turn): Move {
  if (turn.jsonSchema) return { thinking: 'A JSON answer is asked.', text: JSON.stringify(sampleOf(turn.jsonSchema)) };
  return { thinking: 'A side request: a short answer.', text: 'OK' };
}
