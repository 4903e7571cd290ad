import { unsureAmount } from '../amountCheck.ts';
import { appButton } from '../appLinks.ts';
import { addDays } from '../../domain/dates.ts';
import type { Subscription } from '../../domain/schemas.ts';
import { isOpError } from '../../errors/index.ts';
import type { Core } from '../../kernel/core.ts';
import { type AnyOp, movesMoney } from '../../kernel/op.ts';
import { listCharges } from '../../ops/charges/listCharges.ts';
import { type PendingChange, type PendingChanges, pendingChanges } from '../../pending/index.ts';
import { defineFeature } from '../feature.ts';
import { setAwaiting } from '../flows.ts';
import { formatDate, money } from '../format.ts';
import { readPrice } from '../parseAdd.ts';
import type { ReplyBuilder } from '../reply.ts';
import { SUB_OPS, type SubOp } from '../subscriptionActions.ts';
import {
  canRun,
  canSetPrivacy,
  dropButtonsIfGone,
  householdToday,
  loadSubscription,
  memberNames,
  namedGone,
  subscriptionCardLines,
} from '../subscriptionView.ts';
import type { SentRef } from '../types.ts';
import type { Turn } from '../turn.ts';
import { showChange } from './changes.ts';

/**
 * A subscription's card in chat: its lines and a button for each thing the catalog lets this
 * member do with it on chat (Edit, Paid, Skip, Pause or Resume, Cancel, Delete, Category, Tags,
 * Payment method, Shares, Open in app). Every button runs its op through the chat's pending-change
 * service: a change that moves money or deletes is shown first on a card Exhale writes from the
 * dry run, with Confirm and Discard, and applied exactly as shown; any other is applied at once.
 * Either way the result is a change card with Undo.
 */

/** A preview waits half an hour for its Confirm. */
const PREVIEW_TTL_MS = 30 * 60_000;

export function subscriptionChanges(core: Core): PendingChanges {
  return pendingChanges(core, {
    surface: 'chat',
    ttlMs: PREVIEW_TTL_MS,
    refusals: { used: 'chat.sub.used', not_found: 'chat.sub.change_gone' },
  });
}

/** The id of the subscription a card op's arguments are about. */
function subjectOf(args: Record<string, unknown>): string {
  const id = args.id ?? args.subscription_id;
  return typeof id === 'string' ? id : '';
}

/** Adds the card's buttons: only ops offered to this member on chat, so a read-only member sees none. */
function cardButtons(turn: Turn, reply: ReplyBuilder, sub: Subscription): void {
  const id = sub.id;
  const can = (op: string): boolean => canRun(turn, op);
  const b = (label: string, key: string) => `${label} ${turn.t(key)}`;
  const live = sub.status === 'active' || sub.status === 'trial';
  reply.row(
    ...(can('update_subscription')
      ? [reply.action(b('✏️', 'chat.sub.button.edit'), { t: 'sub_edit', s: id })]
      : []),
    ...(can('mark_charge_paid') && live
      ? [
          reply.action(b('✅', 'chat.sub.button.paid'), {
            t: 'sub_charges',
            s: id,
            op: 'mark_charge_paid',
          }),
        ]
      : []),
    ...(can('skip_charge') && live
      ? [
          reply.action(b('⏭️', 'chat.sub.button.skip'), {
            t: 'sub_charges',
            s: id,
            op: 'skip_charge',
          }),
        ]
      : []),
  );
  const run = (op: SubOp, label: string) => reply.action(label, { t: 'sub_run', op, args: { id } });
  reply.row(
    ...(live && can('pause_subscription')
      ? [run('pause_subscription', b('⏸️', 'chat.sub.button.pause'))]
      : []),
    ...(!live && can('resume_subscription')
      ? [run('resume_subscription', b('▶️', 'chat.sub.button.resume'))]
      : []),
    ...(sub.status !== 'cancelled' && can('cancel_subscription')
      ? [run('cancel_subscription', b('🚪', 'chat.sub.button.cancel'))]
      : []),
    ...(can('delete_subscription')
      ? [run('delete_subscription', b('🗑️', 'chat.sub.button.delete'))]
      : []),
  );
  if (can('update_subscription')) {
    const field = (f: 'category' | 'tags' | 'method' | 'shares' | 'private', label: string) =>
      reply.action(label, { t: 'sub_field', s: id, field: f });
    reply.row(
      field('category', b('🗂️', 'chat.sub.button.category')),
      field('tags', b('🏷️', 'chat.sub.button.tags')),
    );
    reply.row(
      field('method', b('💳', 'chat.sub.button.method')),
      field('shares', b('👥', 'chat.sub.button.shares')),
    );
    // Private or shared: for its member, where only they read along.
    if (canSetPrivacy(turn, sub)) reply.row(field('private', b('🔒', 'chat.sub.button.private')));
  }
  // The web app opens on this subscription (appLinks.ts says where and how).
  const open = appButton(
    turn,
    reply,
    `📱 ${turn.t('chat.sub.button.open_app')}`,
    `subscriptions/${encodeURIComponent(id)}`,
  );
  if (open) reply.row(open);
}

/** The card of one subscription, sent (or drawn over the pressed message with `ref`). */
export async function showSubscriptionCard(
  turn: Turn,
  id: string,
  ref: SentRef | null,
  options: { title?: (sub: Subscription) => string; extra?: (reply: ReplyBuilder) => void } = {},
): Promise<void> {
  const sub = await loadSubscription(turn, id);
  const names = sub.shares.length > 0 ? await memberNames(turn) : new Map<string, string>();
  const reply = turn.reply();
  reply.setCard({
    title: options.title ? options.title(sub) : `📄 ${sub.name}`,
    lines: subscriptionCardLines(sub, names, turn.locale),
  });
  cardButtons(turn, reply, sub);
  options.extra?.(reply);
  await turn.update(ref, reply);
}

/**
 * Whether a change is shown before it is made: it deletes, moves money (the op's own `financial`
 * flag for these arguments), or cancels (no charge is expected any more: a mistap must not do it).
 */
function needsPreview(op: AnyOp, args: Record<string, unknown>, destructive: boolean): boolean {
  return (
    op.effect === 'destructive' ||
    destructive ||
    movesMoney(op, args) ||
    op.name === 'cancel_subscription'
  );
}

/**
 * Runs one of the card's ops through the pending-change service; its cards are new messages, and
 * `pressed` (the message whose button asked) only loses its buttons when its subscription is gone. A change that moves money (the
 * op's own `financial` flag for these arguments) or deletes is previewed from its dry run with
 * Confirm and Discard (`extra` adds buttons such as "Another amount"); any other is confirmed at
 * once and shown as a change card with Undo. A subscription deleted meanwhile is refused by name.
 */
export async function runSubscriptionOp(
  turn: Turn,
  opName: SubOp,
  args: Record<string, unknown>,
  pressed: SentRef | null,
  extra?: (reply: ReplyBuilder) => void,
): Promise<void> {
  const op = turn.core.op(opName);
  const service = subscriptionChanges(turn.core);
  let preview;
  try {
    preview = await service.preview(turn.actor, op, args);
  } catch (error) {
    const named = await namedGone(turn, error, subjectOf(args));
    await dropButtonsIfGone(turn, named, pressed);
    throw named;
  }
  // The same value again (the cycle it already has): nothing to confirm, and no blank card.
  if (preview.changes.length === 0) {
    const sub = await loadSubscription(turn, subjectOf(args));
    await turn.say(`ℹ️ ${turn.t('chat.sub.nothing_to_change', { name: sub.name })}`);
    return;
  }
  const change = await service.store(turn.actor, preview);
  if (needsPreview(op, args, preview.card.destructive)) {
    const reply = turn.reply();
    const from = args.price_effective_date;
    reply.setCard({
      title: `${preview.card.destructive ? '⚠️' : '📝'} ${preview.card.title}`,
      lines: [
        ...preview.card.lines,
        ...(typeof from === 'string'
          ? [turn.t('chat.sub.price_from', { date: formatDate(from, turn.locale) })]
          : []),
      ],
    });
    reply.row(
      reply.action(
        turn.t(
          preview.card.destructive ? 'chat.sub.button.confirm_delete' : 'chat.sub.button.confirm',
        ),
        { t: 'sub_confirm', p: change.id },
      ),
      reply.action(`✖️ ${turn.t('chat.sub.button.discard')}`, { t: 'sub_discard', p: change.id }),
    );
    extra?.(reply);
    await turn.send(reply);
    return;
  }
  const applied = await service.confirm(turn.actor, change.id);
  await showChange(turn, opName, applied.result, null, appliedLines(turn, applied.change));
}

/**
 * What a change card adds to the op's result: a price change from a later day says so (the
 * result still shows today's price), and a deletion names what it deleted (its result cannot).
 */
function appliedLines(turn: Turn, change: PendingChange): string[] {
  const { args, op, card } = change.payload;
  const from = args.price_effective_date;
  if (op === 'update_subscription' && typeof from === 'string' && typeof args.amount === 'string')
    return [turn.t('chat.sub.price_changed', { date: formatDate(from, turn.locale) })];
  if (op === 'delete_subscription') return card.lines;
  return [];
}

/** Confirm on a preview: applied once (from any process), exactly as shown, then Undo. */
async function confirmChange(turn: Turn, id: string, ref: SentRef | null): Promise<void> {
  let applied;
  try {
    applied = await subscriptionChanges(turn.core).confirm(turn.actor, id);
  } catch (error) {
    await dropButtonsIfGone(turn, error, ref);
    if (isOpError(error) && ref && error.key.startsWith('pending.') && turn.channel.clearButtons)
      await turn.channel.clearButtons(ref).catch(() => undefined);
    throw error;
  }
  await showChange(turn, applied.op.name, applied.result, ref, appliedLines(turn, applied.change));
}

/** Discard on a preview: nothing changes, and the card says so ("Nothing was changed", as the pending card's). */
async function discardChange(turn: Turn, id: string, ref: SentRef | null): Promise<void> {
  const change = await subscriptionChanges(turn.core).discard(turn.actor, id);
  await turn.update(
    ref,
    turn.reply().setCard({
      title: `✖️ ${turn.t('chat.sub.discarded', { title: change.payload.card.title.replace(/^¿|\?$/g, '') })}`,
      lines: [turn.t('chat.assistant.discarded_line')],
    }),
  );
}

/** How far back and ahead Mark paid and Skip look for a charge to choose. */
const PAST_DAYS = 62;
const AHEAD_DAYS = 400;

/**
 * Mark paid / Skip: the charges still expected (the overdue ones and the next), the next first.
 * One choice only: it is taken at once. Paid previews the amount, with "Another amount" for a
 * variable bill.
 */
export async function chooseCharge(
  turn: Turn,
  id: string,
  op: 'mark_charge_paid' | 'skip_charge',
): Promise<void> {
  const sub = await loadSubscription(turn, id);
  const { today } = await householdToday(turn);
  const { output } = await turn.invoke(listCharges.name, {
    from: addDays(today, -PAST_DAYS),
    to: addDays(today, AHEAD_DAYS),
    subscription_id: id,
    status: ['expected'],
  });
  const expected = listCharges.output.parse(output).items;
  const next = expected.find((c) => c.due_date >= today);
  const overdue = expected.filter((c) => c.due_date < today).slice(-3);
  const choices = [...(next ? [next] : []), ...overdue.reverse()];
  if (choices.length === 0) {
    await turn.say(turn.t('chat.sub.no_charge', { name: sub.name }));
    return;
  }
  const only = choices.length === 1 ? choices[0] : undefined;
  if (only) {
    await settleCharge(turn, op, id, only.due_date);
    return;
  }
  const reply = turn.reply();
  reply.setCard({
    title: `${op === 'mark_charge_paid' ? '✅' : '⏭️'} ${turn.t(`chat.sub.choose_charge.${op}`, { name: sub.name })}`,
    lines: [turn.t('chat.sub.choose_charge.hint')],
  });
  for (const c of choices)
    reply.row(
      reply.action(
        `${c === next ? `${turn.t('chat.sub.next')}: ` : ''}${formatDate(c.due_date, turn.locale)} · ${money(c.amount, c.currency, turn.locale)}`,
        { t: 'sub_run', op, args: { subscription_id: id, due_date: c.due_date } },
      ),
    );
  await turn.send(reply);
}

/**
 * Marks one charge paid (previewed, with "Another amount") or skips it. `note` goes under the
 * preview (how an amount that reads two ways was read).
 */
async function settleCharge(
  turn: Turn,
  op: 'mark_charge_paid' | 'skip_charge',
  id: string,
  due: string,
  amount?: { amount: string; currency: string | null },
  pressed: SentRef | null = null,
  note?: string,
): Promise<void> {
  const args = {
    subscription_id: id,
    due_date: due,
    ...(amount ? { amount: amount.amount } : {}),
    ...(amount?.currency ? { currency: amount.currency } : {}),
  };
  await runSubscriptionOp(
    turn,
    op,
    args,
    pressed,
    op === 'mark_charge_paid'
      ? (reply) => {
          if (note) reply.say(note);
          reply.row(
            reply.action(`✏️ ${turn.t('chat.sub.button.other_amount')}`, {
              t: 'sub_amount',
              s: id,
              due,
            }),
          );
        }
      : undefined,
  );
}

/** Runs a card's button: a charge op chosen on the card goes through its own previews. */
async function pressRun(
  turn: Turn,
  op: SubOp,
  args: Record<string, unknown>,
  ref: SentRef | null,
): Promise<void> {
  if ((op === 'mark_charge_paid' || op === 'skip_charge') && typeof args.due_date === 'string')
    await settleCharge(turn, op, subjectOf(args), args.due_date, undefined, ref);
  else await runSubscriptionOp(turn, op, args, ref);
}

/** "Another amount": asks what the bill actually was. */
async function askAmount(turn: Turn, id: string, due: string): Promise<void> {
  const sub = await loadSubscription(turn, id);
  await setAwaiting(
    turn.db,
    turn.conversationKey,
    turn.owner,
    { t: 'sub_paid_amount', s: id, due },
    turn.now,
  );
  await turn.say(
    turn.t('chat.sub.ask_amount', {
      name: sub.name,
      date: formatDate(due, turn.locale),
      example: money(sub.amount, sub.currency, turn.locale),
    }),
  );
}

/**
 * The typed amount of a variable bill. One that does not read (or says a date: a paid charge has
 * its own) is asked again for what was charged; one that reads two ways ("1.200") is previewed
 * with how it was read, as /add says it.
 */
async function typedAmount(turn: Turn, id: string, due: string, text: string): Promise<void> {
  const sub = await loadSubscription(turn, id);
  const { today } = await householdToday(turn);
  const price = readPrice(text, today, sub.currency);
  if (price === null || price.from !== null) {
    await setAwaiting(
      turn.db,
      turn.conversationKey,
      turn.owner,
      { t: 'sub_paid_amount', s: id, due },
      turn.now,
    );
    await turn.say(
      `⚠️ ${turn.t('chat.sub.bad.paid_amount', {
        text: text.slice(0, 40),
        name: sub.name,
        example: money(sub.amount, sub.currency, turn.locale),
      })}`,
    );
    return;
  }
  const note = price.unsure
    ? turn.t(
        'chat.sub.paid_unsure',
        unsureAmount(price.amount, price.currency ?? sub.currency, turn.locale),
      )
    : undefined;
  await settleCharge(turn, 'mark_charge_paid', id, due, price, null, note);
}

/** The subscription card and its buttons. */
export const subscriptionCardFeature = defineFeature({
  name: 'subscriptionCard',
  // Every button of the card runs one of these (test/core/chat/reachability.test.ts).
  reaches: SUB_OPS,
  actions: {
    sub_card: (turn, action) => showSubscriptionCard(turn, action.s, null),
    sub_run: (turn, action, ref) => pressRun(turn, action.op, action.args, ref),
    sub_confirm: (turn, action, ref) => confirmChange(turn, action.p, ref),
    sub_discard: (turn, action, ref) => discardChange(turn, action.p, ref),
    sub_charges: (turn, action) => chooseCharge(turn, action.s, action.op),
    sub_amount: (turn, action) => askAmount(turn, action.s, action.due),
  },
  answers: {
    sub_paid_amount: (turn, awaiting, text) => typedAmount(turn, awaiting.s, awaiting.due, text),
  },
});
