/*
 * The task the scripted agent plays, shared by the brain (which reads it out of the conversation, as a
 * model would) and by the test that writes its files and checks the client's answer:
 * 1. The user asks to read `notes.txt` (absolute path) and follow it. It holds the code word's first half
 *    and names `second.txt`, which holds the second half and names `pixel.png`, whose size (width x height)
 *    is the last part: three tool round trips, the last one an image that must come back to the model.
 * 2. Further invocations continue the same session ("Step 2", "Step 3"): the brain repeats the code word
 *    only when the earlier turns (the prompt, the tool results and its own answer) are in the prefix.
 */
import { png } from '../../../test/image-fixtures.ts';

/** Every prompt of the task starts with this, so side requests (titles, memory, routing) are told apart. */
export const TASK_MARK = '[agent-task]';

export interface TaskFiles {
  /** Random halves of the code word and the picture's size. */
  first: string;
  second: string;
  width: number;
  height: number;
}

export const firstPrompt = (dir: string) =>
  `${TASK_MARK} Read the file ${dir}/notes.txt with your file-reading tool and do what it says. Reply with the code word it leads to, as "CODE WORD: <word>".`;

export const stepPrompt = (step: number) =>
  `${TASK_MARK} Step ${step}: say the code word again, as "STEP ${step} CODE WORD: <word>".`;

export const notesText = (dir: string, f: TaskFiles) =>
  `First half of the code word: ${f.first}.\nThe second half is in the file ${dir}/second.txt: read it too.\n`;

export const secondText = (dir: string, f: TaskFiles) =>
  `Second half of the code word: ${f.second}.\nThe last part is the size of the picture ${dir}/pixel.png, as WIDTHxHEIGHT: look at it with your file-reading tool.\n`;

export const codeWord = (f: Pick<TaskFiles, 'first' | 'second' | 'width' | 'height'>) =>
  `${f.first}-${f.second}-${f.width}x${f.height}`;

export const firstAnswer = (word: string) => `CODE WORD: ${word}`;
export const stepAnswer = (step: number, word: string) => `STEP ${step} CODE WORD: ${word}`;

/** Fresh random task data: `ALPHA-<hex>`, `BRAVO-<hex>`, a picture of 2..9 x 2..9 pixels. */
export function newTask(random = Math.random): TaskFiles {
  const hex = () =>
    Math.floor(random() * 0xffffff)
      .toString(16)
      .padStart(6, '0');
  const side = () => 2 + Math.floor(random() * 8);
  return { first: `ALPHA-${hex()}`, second: `BRAVO-${hex()}`, width: side(), height: side() };
}

/** A valid PNG of the given size (test/image-fixtures.ts): every client and API takes it as an image. */
export const makePng = png;
