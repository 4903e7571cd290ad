import { findTimeZone } from '../../domain/dates.ts';
import { offers } from '../../kernel/surface.ts';
import { resultLines } from '../cards.ts';
import { defineFeature } from '../feature.ts';
import type { Turn } from '../turn.ts';
import { change } from './changes.ts';
import { proposeChange } from './pendingCard.ts';

/**
 * /household, /members and /tokens: the household itself (its name, currency and time zone, set by
 * the owner with update_household), its members (the owner removes one with remove_member) and
 * the agent tokens (revoke_token). Removing and revoking are previewed first through the
 * pending-change service; each button shows only while its op is offered to the member.
 */

function can(turn: Turn, name: string): boolean {
  return turn.hasOp(name) && offers(turn.core.op(name), turn.actor, 'chat');
}

const FIELDS: Record<string, 'name' | 'currency' | 'time_zone'> = {
  name: 'name',
  nombre: 'name',
  currency: 'currency',
  moneda: 'currency',
  timezone: 'time_zone',
  zone: 'time_zone',
  tz: 'time_zone',
  zona: 'time_zone',
};

async function household(turn: Turn, args: string): Promise<void> {
  const [word = '', ...rest] = args.trim().split(/\s+/);
  const field = FIELDS[word.toLowerCase()];
  const value = rest.join(' ').trim();
  if (field && value !== '') {
    const input =
      field === 'currency'
        ? { currency: value.toUpperCase() }
        : field === 'time_zone'
          ? { time_zone: findTimeZone(value) ?? value }
          : { name: value };
    await change(turn, 'update_household', input, null);
    return;
  }
  const { output } = await turn.invoke('get_household', {});
  const hh = output as { name: string };
  const reply = turn.reply().setCard({
    title: `🏠 ${hh.name}`,
    lines: resultLines(output, turn.locale),
  });
  if (can(turn, 'update_household')) reply.say(turn.t('manage.household.hint'));
  await turn.send(reply);
}

interface MemberView {
  id: string;
  name: string;
  role: string;
}

async function members(turn: Turn): Promise<void> {
  const { output } = await turn.invoke('list_members', {});
  const list = (output as { members: MemberView[] }).members;
  const reply = turn.reply().setCard({
    title: `👥 ${turn.t('manage.members.title', { count: list.length })}`,
    lines: list.map(
      (m) => `• ${m.name}${m.role === 'owner' ? ` (${turn.t('manage.members.owner')})` : ''}`,
    ),
  });
  // Removing someone is for the owner, in a private chat (the op refuses anyone else).
  if (!turn.inGroup && can(turn, 'remove_member'))
    for (const m of list.filter((x) => x.id !== turn.actor.memberId))
      reply.row(
        reply.action(turn.t('manage.members.remove', { name: m.name }), {
          t: 'hh_remove',
          id: m.id,
        }),
      );
  await turn.send(reply);
}

interface TokenView {
  id: string;
  name: string;
  scope: string;
  prefix: string;
  member_name: string | null;
  revoked_at: string | null;
}

async function tokens(turn: Turn): Promise<void> {
  const { output } = await turn.invoke('list_tokens', {});
  const live = (output as { items: TokenView[] }).items.filter((x) => x.revoked_at === null);
  const reply = turn.reply().setCard({
    title: `🔑 ${turn.t('manage.tokens.title', { count: live.length })}`,
    lines:
      live.length > 0
        ? live.map((x) => `• ${x.name} · ${x.scope} · ${x.prefix}… · ${x.member_name ?? ''}`)
        : [turn.t('manage.tokens.none')],
  });
  if (can(turn, 'revoke_token'))
    for (const x of live)
      reply.row(
        reply.action(turn.t('manage.tokens.revoke', { name: x.name }), {
          t: 'hh_revoke',
          id: x.id,
        }),
      );
  await turn.send(reply);
}

export const householdFeature = defineFeature({
  name: 'household',
  commands: [
    { command: 'household', op: 'get_household', place: 'any', newcomer: false, run: household },
    { command: 'members', op: 'list_members', place: 'any', newcomer: false, run: members },
    { command: 'tokens', op: 'list_tokens', place: 'private', newcomer: false, run: tokens },
  ],
  reaches: ['update_household', 'remove_member', 'revoke_token'],
  actions: {
    hh_remove: (turn, action, ref) =>
      proposeChange(turn, 'remove_member', { id: action.id }, ref, (output) => {
        const out = output as { subscriptions_moved: number; tokens_revoked: number };
        return [
          turn.t('manage.members.remove_effect', {
            subs: out.subscriptions_moved,
            tokens: out.tokens_revoked,
          }),
        ];
      }),
    hh_revoke: (turn, action, ref) => proposeChange(turn, 'revoke_token', { id: action.id }, ref),
  },
});
