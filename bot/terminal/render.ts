import type { Button, Reply } from '../../core/chat/index.ts';

/** A press target the person can type: its number and the payload it stands for. */
export interface NumberedChoice {
  n: number;
  payload: string;
  messageId: string;
}

/**
 * A reply as terminal text: the card framed by its title, then the text, then the buttons as
 * numbered choices ("[3] Undo"); links are printed in full. `numberOf` numbers each choice by
 * its label and how many buttons of that label came before it in the message, so a redrawn
 * message keeps its numbers (see runTerminalChat).
 */
export function renderTerminal(
  reply: Reply,
  messageId: string,
  numberOf: (label: string, occurrence: number) => number,
): { text: string; choices: NumberedChoice[] } {
  const seen = new Map<string, number>();
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
        const occurrence = seen.get(button.label) ?? 0;
        seen.set(button.label, occurrence + 1);
        const n = numberOf(button.label, occurrence);
        choices.push({ n, payload: button.payload, messageId });
        return `[${n}] ${button.label}`;
      }
      return `${button.label}: ${button.url}`;
    });
    out.push(cells.join('   '));
  }
  return { text: out.join('\n'), choices };
}
