import type { Button, Reply } from '../../core/chat/index.ts';

/** A press target the person can type: its number and the payload it stands for. */
export interface NumberedChoice {
  n: number;
  payload: string;
  messageId: string;
}

/**
 * A reply as terminal text: the card framed by its title, then the text, then the buttons as
 * numbered choices ("[3] Undo"); links are printed in full. `next` numbers the choices so they
 * stay unique for the whole session.
 */
export function renderTerminal(
  reply: Reply,
  messageId: string,
  next: () => number,
): { text: string; choices: NumberedChoice[] } {
  const out: string[] = [];
  if (reply.card) {
    out.push(`┌ ${reply.card.title}`);
    for (const line of reply.card.lines) for (const part of line.split('\n')) out.push(`│ ${part}`);
    if (reply.card.code) out.push(`│ ${reply.card.code}`);
    out.push('└');
  }
  if (reply.text) out.push(reply.text);
  const choices: NumberedChoice[] = [];
  for (const row of reply.buttons ?? []) {
    const cells = row.map((button: Button) => {
      if (button.kind === 'action') {
        const n = next();
        choices.push({ n, payload: button.payload, messageId });
        return `[${n}] ${button.label}`;
      }
      return `${button.label}: ${button.url}`;
    });
    out.push(cells.join('   '));
  }
  return { text: out.join('\n'), choices };
}
