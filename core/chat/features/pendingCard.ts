import type { Core } from '../../kernel/core.ts';
import { type PendingChanges, pendingChanges } from '../../pending/index.ts';
import { changeCard } from '../cards.ts';
import { defineFeature } from '../feature.ts';
import type { Turn } from '../turn.ts';
import type { SentRef } from '../types.ts';

/**
 * A change that asks first, from chat with no model: the op is dry-run by the pending-change
 * service, which writes the card (core/pending/card.ts) and stores it; Confirm applies it exactly as
 * previewed, once from any process; Discard drops it; the result card has Undo. Organizing
 * (deletes, merges) and /import use it; the buttons are this feature's.
 */

/** A previewed change can be confirmed for half an hour. */
const CONFIRM_TTL_MS = 30 * 60_000;
/** Undo works on the result card for a day, the longest a pending change is kept. */
const UNDO_WINDOW_MS = 24 * 3_600_000;

function service(core: Core): PendingChanges {
  return pendingChanges(core, {
    surface: 'chat',
    ttlMs: CONFIRM_TTL_MS,
    undoWindowMs: UNDO_WINDOW_MS,
    refusals: {
      used: 'manage.pending.used',
      expired: 'manage.pending.expired',
      spent: 'manage.pending.spent',
    },
  });
}

/**
 * Previews `opName` with `args` for the speaker and shows its card with Confirm and Discard.
 * `lead` lines come first: what the change does to other records, said in the feature's words
 * (a deleted category's subscriptions). Edits `ref` when given. A dry run that would change
 * nothing ("Nothing would change") has nothing to confirm: its card offers only Discard.
 */
export async function proposeChange(
  turn: Turn,
  opName: string,
  args: Record<string, unknown>,
  ref: SentRef | null,
  lead: (output: unknown) => string[] = () => [],
): Promise<void> {
  const { change, preview } = await service(turn.core).prepare(
    turn.actor,
    turn.core.op(opName),
    args,
  );
  const { card } = preview;
  const nothing = preview.changes.length === 0;
  // Nothing to lose when nothing would change: no warning, and the card is not marked.
  const destructive = card.destructive && !nothing;
  const reply = turn.reply().setCard({
    title: `${destructive ? '⚠️' : '📝'} ${card.title}`,
    lines: [...lead(preview.output), ...card.lines],
  });
  if (destructive) reply.say(turn.t('chat.assistant.destructive'));
  const discard = reply.action(turn.t('chat.assistant.discard'), { t: 'pc_discard', p: change.id });
  if (nothing) reply.row(discard);
  else
    reply.row(
      reply.action(
        turn.t(destructive ? 'chat.assistant.confirm_destructive' : 'chat.assistant.confirm'),
        { t: 'pc_confirm', p: change.id },
      ),
      discard,
    );
  await turn.update(ref, reply);
}

/** A preview's question as a statement: "Delete the category TV", not "¿Borrar…?". */
const statement = (title: string): string => title.replace(/^¿/, '').replace(/\?$/, '');

async function confirm(turn: Turn, id: string, ref: SentRef | null): Promise<void> {
  const applied = await service(turn.core).confirm(turn.actor, id);
  const reply = turn.reply();
  const card = changeCard(applied.op, applied.result.output, turn.locale, await turn.timeZone());
  card.lines.push(...applied.change.payload.card.lines);
  reply.setCard(card);
  if (applied.result.auditId)
    reply.row(reply.action(turn.t('chat.button.undo'), { t: 'pc_undo', p: id }));
  else reply.say(turn.t('chat.nothing_changed'));
  await turn.update(ref, reply);
}

async function discard(turn: Turn, id: string, ref: SentRef | null): Promise<void> {
  const change = await service(turn.core).discard(turn.actor, id);
  await turn.update(
    ref,
    turn.reply().setCard({
      title: turn.t('chat.assistant.discarded', { title: statement(change.payload.card.title) }),
      lines: [turn.t('chat.assistant.discarded_line')],
    }),
  );
}

async function undo(turn: Turn, id: string, ref: SentRef | null): Promise<void> {
  const { change } = await service(turn.core).undo(turn.actor, id);
  await turn.update(
    ref,
    turn.reply().setCard({
      title: `↩️ ${turn.t('manage.pending.undone', { title: statement(change.payload.card.title) })}`,
      lines: [turn.t('manage.pending.undone_line')],
    }),
  );
}

/** The buttons of a change previewed from chat. */
export const pendingCardFeature = defineFeature({
  name: 'pendingCard',
  reaches: ['undo'],
  actions: {
    pc_confirm: (turn, action, ref) => confirm(turn, action.p, ref),
    pc_discard: (turn, action, ref) => discard(turn, action.p, ref),
    pc_undo: (turn, action, ref) => undo(turn, action.p, ref),
  },
});
