import { z } from 'zod';

import { OpError } from '../../errors/index.ts';
import { listActivity } from '../../ops/activity/listActivity.ts';
import { defineFeature } from '../feature.ts';
import type { SubCommand, SubOp } from '../subscriptionActions.ts';
import type { SentRef } from '../types.ts';
import type { Turn } from '../turn.ts';
import { showUndone } from './activity.ts';
import { chooseCharge, runSubscriptionOp, showSubscriptionCard } from './subscriptionCard.ts';
import { editWith } from './subscriptionEdit.ts';
import { pickSubscription } from './subscriptionPick.ts';

/**
 * What people type to manage one subscription: /paid, /skip, /pause, /resume, /cancel, /delete
 * (each with a name, or a pick list), and /redo. Each names the op it runs, so the engine offers
 * it only while the catalog offers that op on chat; the change itself goes through the card's
 * pending-change path (previewed when it moves money or deletes, then Undo).
 */

const STATUS_OPS: Partial<Record<SubCommand, SubOp>> = {
  pause: 'pause_subscription',
  resume: 'resume_subscription',
  cancel: 'cancel_subscription',
  delete: 'delete_subscription',
};

/** Runs `cmd` on one chosen subscription (a typed name that matched, or a pick). */
async function runOn(
  turn: Turn,
  cmd: SubCommand,
  id: string,
  rest: string,
  ref: SentRef | null,
): Promise<void> {
  const op = STATUS_OPS[cmd];
  if (op) return runSubscriptionOp(turn, op, { id }, ref);
  switch (cmd) {
    case 'paid':
      return chooseCharge(turn, id, 'mark_charge_paid');
    case 'skip':
      return chooseCharge(turn, id, 'skip_charge');
    case 'edit':
      return editWith(turn, id, rest, null);
    default:
      return showSubscriptionCard(turn, id, null);
  }
}

function command(cmd: SubCommand, op: string) {
  return {
    command: cmd,
    op,
    place: 'any' as const,
    newcomer: false,
    async run(turn: Turn, args: string): Promise<void> {
      const id = await pickSubscription(turn, cmd, args);
      if (id) await runOn(turn, cmd, id, '', null);
    },
  };
}

/**
 * `/redo`: undoes the speaker's latest undo that is still in effect, bringing its change back
 * (the `undo` op re-applies a change when its undo is undone).
 */
async function redoLatest(turn: Turn): Promise<void> {
  const { output } = await turn.invoke(listActivity.name, {
    limit: 20,
    ...(turn.actor.memberId ? { member_id: turn.actor.memberId } : {}),
  });
  const undos = listActivity.output
    .parse(output)
    .items.filter((item) => item.op === 'undo' && !item.undone && item.can_undo);
  for (const candidate of undos) {
    // A redo is an undo too (of an undo): redoing it would take the change back again.
    if (await isRedo(turn, candidate.id)) continue;
    await showUndone(turn, await turn.invoke('undo', { ids: [candidate.id] }));
    return;
  }
  throw new OpError('not_found', 'chat.sub.nothing_to_redo');
}

/** Whether an undo entry (one list_activity showed this member) undid an undo. */
async function isRedo(turn: Turn, auditId: string): Promise<boolean> {
  const entry = (await turn.db.knex('audit_entries').where({ id: auditId }).first('links')) as
    { links: string | null } | undefined;
  const targets = z.array(z.string()).parse(JSON.parse(entry?.links ?? '[]'));
  if (targets.length === 0) return false;
  const ops = (await turn.db.knex('audit_entries').whereIn('id', targets).select('op')) as Array<{
    op: string;
  }>;
  return ops.some((o) => o.op === 'undo');
}

/** The commands that manage a subscription, and the pick list's buttons. */
export const subscriptionCommandsFeature = defineFeature({
  name: 'subscriptionCommands',
  commands: [
    command('paid', 'mark_charge_paid'),
    command('skip', 'skip_charge'),
    command('pause', 'pause_subscription'),
    command('resume', 'resume_subscription'),
    command('cancel', 'cancel_subscription'),
    command('delete', 'delete_subscription'),
    { command: 'redo', op: 'undo', place: 'private', newcomer: false, run: redoLatest },
  ],
  actions: {
    sub_pick: (turn, action, ref) => runOn(turn, action.cmd, action.s, action.rest ?? '', ref),
  },
});
