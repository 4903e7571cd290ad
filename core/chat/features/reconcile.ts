import { isOpError, OpError } from '../../errors/index.ts';
import type { Core } from '../../kernel/core.ts';
import { type PendingChanges, pendingChanges } from '../../pending/index.ts';
import { markChargesPaid } from '../../ops/charges/markChargesPaid.ts';
import { listSubscriptions } from '../../ops/subscriptions/listSubscriptions.ts';
import { reconcileStatement } from '../../ops/statements/reconcileStatement.ts';
import { defineFeature } from '../feature.ts';
import { formatDate, money } from '../format.ts';
import {
  loadReconciliation,
  type Reconciliation,
  saveReconciliation,
  updateReconciliation,
} from '../reconcileFlow.ts';
import { reconcileLines } from '../reconcileCard.ts';
import { loadReview, reviewCurrency } from '../statementFlow.ts';
import type { Turn } from '../turn.ts';
import type { SentRef } from '../types.ts';

/**
 * Reconciling a statement in chat: the statement review's "Reconcile" (shown while the household
 * has subscriptions the member can see) runs reconcile_statement on the file the review keeps, and
 * Exhale writes its card from the result (never a model's words): matched, to review, expected but
 * missing, recurring and untracked. "Mark N paid" applies mark_charges_paid to exactly the matched
 * charges the card listed, through the chat's pending-change service (dry-run first; when any was
 * recorded since, the statement is reconciled again instead), once from any process; Undo takes
 * the whole batch back.
 */

/** A prepared batch waits this long (it is confirmed in the same press). */
const MARK_TTL_MS = 10 * 60_000;
/** Undo works on the result card for a day, the longest a pending change is kept. */
const UNDO_WINDOW_MS = 24 * 3_600_000;

function marks(core: Core): PendingChanges {
  return pendingChanges(core, {
    surface: 'chat',
    ttlMs: MARK_TTL_MS,
    undoWindowMs: UNDO_WINDOW_MS,
    refusals: { used: 'reconcile.chat.used', not_found: 'reconcile.chat.gone' },
  });
}

/** Whether the statement review offers "Reconcile": the speaker sees at least one subscription. */
export async function canReconcile(turn: Turn): Promise<boolean> {
  const { output } = await turn.core.invoke(
    listSubscriptions,
    turn.actor,
    { limit: 1 },
    { surface: 'chat' },
  );
  return output.total > 0;
}

/** Reconciles the statement of review `reviewId` and shows its card (edits `ref`). */
async function start(turn: Turn, reviewId: string, ref: SentRef | null, note?: string) {
  const row = await loadReview(turn.db, reviewId, turn.now);
  if (!row || row.memberId !== turn.actor.memberId || row.householdId !== turn.actor.householdId)
    throw new OpError('not_found', 'chat.statements.gone');
  const file = row.payload;
  const { output } = await turn.core.invoke(
    reconcileStatement,
    turn.actor,
    {
      file_name: file.file_name,
      content: file.content,
      encoding: 'base64',
      ...reviewCurrency(file),
    },
    { surface: 'chat' },
  );
  const id = turn.core.newId('rec');
  await saveReconciliation(
    turn.db,
    {
      id,
      householdId: turn.actor.householdId,
      memberId: turn.actor.memberId,
      value: {
        review_id: reviewId,
        file_name: file.file_name,
        to_mark: output.to_mark,
        status: 'open',
        pending_id: null,
      },
    },
    turn.now,
  );
  const lines = reconcileLines(turn.locale, output);
  if (note) lines.push(note);
  const reply = turn
    .reply()
    .setCard({ title: turn.t('reconcile.chat.title', { file: file.file_name }), lines });
  if (output.to_mark.length > 0)
    reply.row(
      reply.action(turn.t('reconcile.chat.mark', { count: output.to_mark.length }), {
        t: 'rec_mark',
        r: id,
      }),
    );
  await turn.update(ref, reply);
}

async function reconciliation(turn: Turn, id: string): Promise<Reconciliation> {
  const row = await loadReconciliation(turn.db, id, turn.now);
  if (!row || row.memberId !== turn.actor.memberId || row.householdId !== turn.actor.householdId)
    throw new OpError('not_found', 'reconcile.chat.gone');
  return row.payload;
}

/**
 * "Mark N paid": the press on the card Exhale wrote is the confirmation. The batch is dry-run
 * first; when one of its charges was recorded since (the batch is refused whole), the statement is
 * reconciled again and nothing is written. Otherwise it is applied as previewed, once.
 */
async function mark(turn: Turn, id: string, ref: SentRef | null) {
  const r = await reconciliation(turn, id);
  if (r.status !== 'open') throw new OpError('conflict', 'reconcile.chat.used');
  const service = marks(turn.core);
  let preview;
  try {
    preview = await service.preview(turn.actor, turn.core.op(markChargesPaid.name), {
      charges: r.to_mark,
    });
  } catch (error) {
    if (!isOpError(error) || error.code !== 'conflict') throw error;
    await updateReconciliation(turn.db, id, { ...r, status: 'replaced' });
    await start(turn, r.review_id, ref, `ℹ️ ${turn.t('reconcile.chat.stale')}`);
    return;
  }
  const change = await service.store(turn.actor, preview);
  const applied = await service.confirm(turn.actor, change.id);
  await updateReconciliation(turn.db, id, { ...r, status: 'marked', pending_id: change.id });
  const done = markChargesPaid.output.parse(applied.result.output);
  const reply = turn.reply().setCard({
    title: turn.t('reconcile.chat.marked', { count: done.count }),
    lines: done.items.map((c) =>
      turn.t('reconcile.chat.matched_line', {
        name: c.subscription_name,
        date: formatDate(c.due_date, turn.locale),
        amount: money(c.amount, c.currency, turn.locale),
      }),
    ),
  });
  if (applied.result.auditId)
    reply.row(reply.action(turn.t('chat.button.undo'), { t: 'rec_undo', p: change.id }));
  await turn.update(ref, reply);
}

async function undoMarks(turn: Turn, pendingId: string, ref: SentRef | null) {
  const { change } = await marks(turn.core).undo(turn.actor, pendingId);
  const charges = change.payload.args.charges;
  await turn.update(
    ref,
    turn.reply().setCard({
      title: turn.t('reconcile.chat.undone', {
        count: Array.isArray(charges) ? charges.length : 0,
      }),
      lines: [turn.t('reconcile.chat.undone_line')],
    }),
  );
}

/** Reconcile on the statement review, and the buttons of its card. */
export const reconcileFeature = defineFeature({
  name: 'reconcile',
  reaches: ['reconcile_statement', 'mark_charges_paid'],
  actions: {
    rec_start: (turn, action, ref) => start(turn, action.s, ref),
    rec_mark: (turn, action, ref) => mark(turn, action.r, ref),
    rec_undo: (turn, action, ref) => undoMarks(turn, action.p, ref),
  },
});
