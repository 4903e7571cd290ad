import type { ChangeEvent } from '../../kernel/events.ts';
import type { Core } from '../../kernel/core.ts';
import { renderSummary } from '../../i18n/activity.ts';
import { localeFrom, t } from '../../i18n/index.ts';
import type { Reminder } from '../../reminders/types.ts';
import { defineFeature } from '../feature.ts';
import { formatDate, money, relativeDay } from '../format.ts';
import { firstTime } from '../once.ts';
import { ReplyBuilder } from '../reply.ts';
import type { Reply, SentRef } from '../types.ts';
import type { Turn } from '../turn.ts';
import { change } from './changes.ts';

/** The message a reminder is delivered as, with buttons to mark the charge paid, skip it, or cancel. */
export async function reminderReply(core: Core, r: Reminder, now: Date): Promise<Reply> {
  const locale = localeFrom(r.language);
  const params = {
    name: r.subscriptionName,
    when: relativeDay(r.eventDate, r.today, locale),
    date: formatDate(r.eventDate, locale),
    amount: r.amount ? money(r.amount, r.currency, locale) : '',
    old: r.oldAmount ? money(r.oldAmount, r.currency, locale) : '',
    contract: r.contractEnds ? formatDate(r.contractEnds, locale) : '',
  };
  const reply = new ReplyBuilder().say(t(locale, `chat.reminder.${r.kind}`, params));
  if (r.kind === 'charge') {
    reply.row(
      reply.action(`✅ ${t(locale, 'chat.button.paid')}`, {
        t: 'paid',
        sub: r.subscriptionId,
        due: r.eventDate,
      }),
      reply.action(`⏭️ ${t(locale, 'chat.button.skip')}`, {
        t: 'skip',
        sub: r.subscriptionId,
        due: r.eventDate,
      }),
    );
  }
  if (r.cancelUrl) reply.row(reply.url(`🚪 ${t(locale, 'chat.button.cancel_page')}`, r.cancelUrl));
  reply.row(
    reply.action(`⚙️ ${t(locale, 'chat.sub.button.manage')}`, {
      t: 'sub_card',
      s: r.subscriptionId,
    }),
  );
  return reply.build(
    core.db,
    { householdId: r.householdId, memberId: r.memberId, who: null },
    now,
    core.newId,
  );
}

interface AuditSummary {
  id: string;
  summary: string;
  summary_text: string | null;
  undone_by: string | null;
}

/**
 * A change an agent made over MCP, told to the member whose token it used, with Undo. Null for
 * changes made by anyone else (they saw their own card already).
 */
export async function agentNotice(
  core: Core,
  event: ChangeEvent,
  now: Date,
): Promise<{ memberId: string; reply: Reply } | null> {
  if (event.actor.kind !== 'agent' || event.actor.memberId === null) return null;
  // Once per change, even if several processes hear of it.
  if (!(await firstTime(core.db, `agent-notice:${event.auditId}`, now))) return null;
  const memberId = event.actor.memberId;
  const [entry, member] = await Promise.all([
    core.db
      .knex('audit_entries')
      .where({ id: event.auditId })
      .first('id', 'summary', 'summary_text', 'undone_by') as Promise<AuditSummary | undefined>,
    core.db.knex('members').where({ id: memberId }).first('language') as Promise<
      { language: string } | undefined
    >,
  ]);
  if (!entry || !member) return null;
  const locale = localeFrom(member.language);
  const reply = new ReplyBuilder();
  reply.setCard({
    title: `🤖 ${t(locale, 'chat.agent.title', { agent: event.actor.agentName ?? t(locale, 'chat.agent.unnamed') })}`,
    lines: [renderSummary(locale, entry)],
  });
  reply.row(reply.action(t(locale, 'chat.button.undo'), { t: 'undo', audit: entry.id }));
  return {
    memberId,
    reply: await reply.build(
      core.db,
      { householdId: event.householdId, memberId, who: null },
      now,
      core.newId,
    ),
  };
}

/** A reminder's Paid or Skip: the charge is recorded through its op, and the reminder loses its buttons. */
async function settle(
  turn: Turn,
  op: 'mark_charge_paid' | 'skip_charge',
  action: { sub: string; due: string },
  ref: SentRef | null,
): Promise<void> {
  if (ref && turn.channel.clearButtons) await turn.channel.clearButtons(ref);
  await change(turn, op, { subscription_id: action.sub, due_date: action.due }, null);
}

/** What reaches members outside a conversation: reminders (their buttons) and agent notices. */
export const noticesFeature = defineFeature({
  name: 'notices',
  reaches: ['mark_charge_paid', 'skip_charge'],
  actions: {
    paid: (turn, action, ref) => settle(turn, 'mark_charge_paid', action, ref),
    skip: (turn, action, ref) => settle(turn, 'skip_charge', action, ref),
  },
});
