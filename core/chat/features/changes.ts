import type { InvokeResult } from '../../kernel/core.ts';
import { changeCard } from '../cards.ts';
import type { SentRef } from '../types.ts';
import type { Turn } from '../turn.ts';

/**
 * Shows a change made from chat: a card written from the op's result, with an Undo button that
 * calls the `undo` op with the audit id `invoke` returned. Edits the pressed message when given.
 */
export async function showChange(
  turn: Turn,
  opName: string,
  result: InvokeResult,
  ref: SentRef | null,
  extra: string[] = [],
  options: { card?: string | null } = {},
): Promise<void> {
  const reply = turn.reply();
  const card = changeCard(turn.core.op(opName), result.output, turn.locale, await turn.timeZone());
  card.lines.push(...extra);
  reply.setCard(card);
  // `card`: the subscription the change is about, whose card a button opens (an Added card).
  const open = options.card
    ? [reply.action(`⚙️ ${turn.t('chat.sub.button.manage')}`, { t: 'sub_card', s: options.card })]
    : [];
  if (result.auditId === null) reply.say(turn.t('chat.nothing_changed'));
  else
    reply.row(
      reply.action(turn.t('chat.button.undo'), { t: 'undo', audit: result.auditId }),
      ...open,
    );
  await turn.update(ref, reply);
}

/** Runs a write op for the speaker and shows the result as a change card. */
export async function change(
  turn: Turn,
  opName: string,
  input: unknown,
  ref: SentRef | null,
): Promise<void> {
  const result = await turn.invoke(opName, input);
  await showChange(turn, opName, result, ref);
}
