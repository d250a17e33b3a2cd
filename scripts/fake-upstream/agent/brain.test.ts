import { describe, expect, it } from 'vitest';
import { decide, readCall } from './brain.ts';
import type { Item, ToolSpec, Turn } from './conversation.ts';
import { codeWord, firstAnswer, firstPrompt, makePng, notesText, secondText, stepAnswer, stepPrompt } from './task.ts';

const DIR = '/w';
const TASK = { first: 'ALPHA-0a0b0c', second: 'BRAVO-1a1b1c', width: 3, height: 2 };
const WORD = codeWord(TASK);
const PNG = { mime: 'image/png', data: makePng(TASK.width, TASK.height).toString('base64') };

const schema = (props: string[], required = props) => ({
  type: 'object',
  properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])),
  required,
});
const CLAUDE: ToolSpec[] = [
  { name: 'Bash', schema: schema(['command']) },
  { name: 'Read', schema: schema(['file_path', 'offset', 'limit'], ['file_path']) },
];
const CODEX: ToolSpec[] = [
  { name: 'exec_command', schema: schema(['cmd', 'workdir'], ['cmd']) },
  { name: 'view_image', schema: schema(['path']) },
];
const QWEN: ToolSpec[] = [{ name: 'read_file', schema: schema(['absolute_path', 'offset'], ['absolute_path']) }];

const user = (text: string): Item => ({ kind: 'user', text, images: [] });
const turn = (items: Item[], tools = CLAUDE): Turn => ({ items, tools, thinking: true });

/** The conversation of a client that ran every call the brain asked for, up to (not including) its answer. */
function play(tools: ToolSpec[], imageIn: 'result' | 'user' | 'none' = 'result'): Item[] {
  const files: Record<string, string> = {
    [`${DIR}/notes.txt`]: notesText(DIR, TASK),
    [`${DIR}/second.txt`]: secondText(DIR, TASK),
  };
  const items: Item[] = [user(firstPrompt(DIR))];
  for (let n = 1; n <= 3; n++) {
    const move = decide(turn(items, tools));
    expect(move.call, `call ${n}`).toBeDefined();
    const path = Object.values(move.call!.args).join(' ').replace(/^cat /, '');
    items.push({ kind: 'call', id: `c${n}`, name: move.call!.name, args: move.call!.args });
    const picture = path.endsWith('.png');
    items.push({
      kind: 'result',
      id: `c${n}`,
      text: picture ? 'Image read' : files[path],
      images: picture && imageIn === 'result' ? [PNG] : [],
    });
    if (picture && imageIn === 'user')
      items.push({ kind: 'user', text: 'Attached by the tool result:', images: [PNG] });
  }
  return items;
}

describe('agent brain', () => {
  it("reads with each client's own tool: Read, read_file, a shell's cat for text and view_image for pictures", () => {
    expect(readCall(CLAUDE, '/w/a.txt')).toEqual({ name: 'Read', args: { file_path: '/w/a.txt' } });
    expect(readCall(QWEN, '/w/a.png')).toEqual({ name: 'read_file', args: { absolute_path: '/w/a.png' } });
    expect(readCall(CODEX, '/w/a.txt')).toEqual({ name: 'exec_command', args: { cmd: 'cat /w/a.txt' } });
    expect(readCall(CODEX, '/w/a.png')).toEqual({ name: 'view_image', args: { path: '/w/a.png' } });
    expect(readCall([{ name: 'write', schema: schema(['filePath', 'content']) }], '/w/a.txt')).toBeUndefined();
  });

  it('follows notes.txt to second.txt to the picture and answers with the code word and its size', () => {
    for (const tools of [CLAUDE, CODEX, QWEN]) {
      const items = play(tools);
      expect(items.filter((i) => i.kind === 'call').map((i) => (i.kind === 'call' ? i.args : {}))).toHaveLength(3);
      expect(decide(turn(items, tools)).text).toBe(firstAnswer(WORD));
    }
  });

  it('takes a picture a gateway moved out of the tool result into the next user message, and says when none came', () => {
    expect(decide(turn(play(CLAUDE, 'user'))).text).toBe(firstAnswer(WORD));
    expect(decide(turn(play(CLAUDE, 'none'))).text).toMatch(/^CODE WORD UNKNOWN: missing the picture/);
  });

  it('repeats the code word in a later step only when the earlier turns are in the prefix', () => {
    const before = [...play(CLAUDE), { kind: 'assistant', text: firstAnswer(WORD) } as Item];
    expect(decide(turn([...before, user(stepPrompt(2))])).text).toBe(stepAnswer(2, WORD));
    const step3 = [...before, user(stepPrompt(2)), { kind: 'assistant', text: stepAnswer(2, WORD) } as Item];
    expect(decide(turn([...step3, user(stepPrompt(3))])).text).toBe(stepAnswer(3, WORD));
    // A client that dropped the tool results (or its own answer) from the session is caught.
    const noResults = before.filter((i) => i.kind !== 'result');
    expect(decide(turn([...noResults, user(stepPrompt(2))])).text).toMatch(/^PREFIX MISSING: notes\.txt's result/);
    expect(decide(turn([...before, user(stepPrompt(3))])).text).toBe('PREFIX MISSING: the answer to step 2');
  });

  it('answers side requests shortly: no task, no tools, or the user said something after the task', () => {
    expect(decide(turn([user('hello')])).text).toBe('OK');
    expect(decide({ ...turn([user(firstPrompt(DIR))]), tools: [] }).text).toBe('OK');
    expect(decide(turn([user(firstPrompt(DIR)), user('Summarize the conversation for your memory.')])).text).toBe('OK');
    const json = decide({ ...turn([user('next speaker?')]), jsonSchema: schema(['next_speaker']) });
    expect(JSON.parse(json.text!)).toEqual({ next_speaker: 'ok' });
  });

  it('finds the task in text a gateway joined to other parts, or that a client quoted', () => {
    const joined = decide(turn([user(`<session_context>x</session_context>${firstPrompt(DIR)}`)]));
    expect(joined.call?.args).toEqual({ file_path: `${DIR}/notes.txt` });
    expect(decide(turn([user(`"${firstPrompt(DIR)}"`)])).call?.name).toBe('Read');
  });
});
