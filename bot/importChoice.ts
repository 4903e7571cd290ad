import { createInterface } from 'node:readline';

/**
 * The terminal import prompt's answers: numbers of the shown choices ("1 3", "1,3"), a word for
 * all the ticked ones or for none, in English or Spanish whatever the reader's language (a
 * Spanish reader may type "none" from habit, an English one "ninguna" from the card). Anything
 * else is asked again, saying what is accepted; the end of input, or an empty answer once asked
 * again, cancels. Enter at the first prompt takes the ticked ones, as the prompt says.
 */

const NONE = new Set(['none', 'no', 'n', 'q', 'quit', 'ninguna', 'ninguno', 'nada', 'ningun']);
const ALL = new Set(['all', 'yes', 'y', 'todas', 'todos', 'todo', 'si', 'sí', 's']);

export type Choice = { kind: 'ticked' } | { kind: 'none' } | { kind: 'numbers'; numbers: number[] };

/** One answer read as a choice among `numbers`, or null when it is none of the accepted forms. */
export function parseChoice(answer: string, numbers: readonly number[]): Choice | null {
  const a = answer.trim().toLowerCase();
  if (a === '' || ALL.has(a)) return { kind: 'ticked' };
  if (NONE.has(a)) return { kind: 'none' };
  const tokens = a.split(/[\s,;]+/).filter((x) => x !== '');
  if (!tokens.every((x) => /^\d+$/.test(x))) return null;
  const picked = tokens.map(Number);
  return picked.every((x) => numbers.includes(x)) ? { kind: 'numbers', numbers: picked } : null;
}

/**
 * Asks until an answer is one of the accepted forms: `ask` is written first, `again(answer)`
 * after each answer that is not; null (cancel) at the end of input or an empty answer asked again.
 */
export async function askChoice(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  numbers: readonly number[],
  ask: string,
  again: (answer: string) => string,
): Promise<Choice | null> {
  const lines = createInterface({ input, terminal: false });
  try {
    output.write(`${ask} `);
    let asked = false;
    for await (const line of lines) {
      if (asked && line.trim() === '') return null;
      const choice = parseChoice(line, numbers);
      if (choice) return choice;
      output.write(`${again(line.trim())} `);
      asked = true;
    }
    return null;
  } finally {
    lines.close();
  }
}
