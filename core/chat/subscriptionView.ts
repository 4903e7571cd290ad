import { localDate } from '../domain/dates.ts';
import { type Subscription, Subscription as SubscriptionSchema } from '../domain/schemas.ts';
import { isOpError, OpError } from '../errors/index.ts';
import { type Locale, t } from '../i18n/index.ts';
import { offers } from '../kernel/surface.ts';
import { listMembers } from '../ops/household/listMembers.ts';
import { deletedRecordName } from '../store/repos/audit.ts';
import { cycleText, formatDate, money } from './format.ts';
import type { SentRef } from './types.ts';
import type { Turn } from './turn.ts';

/**
 * Reading one subscription for chat: its record through `get_subscription`, the lines of its card,
 * today in the household, and the refusal that names a subscription deleted since a button was
 * drawn. Shared by the card, Edit and the commands that take a subscription.
 */

/** The subscription as `get_subscription` returns it, or the named refusal when it was deleted. */
export async function loadSubscription(turn: Turn, id: string): Promise<Subscription> {
  try {
    const { output } = await turn.invoke('get_subscription', { id });
    return SubscriptionSchema.parse(output);
  } catch (error) {
    throw await namedGone(turn, error, id);
  }
}

/**
 * An op's "not found" for a subscription the member knew, which the activity log says was deleted:
 * "Netflix was deleted…", never its id. Anything else comes back as it was.
 */
export async function namedGone(turn: Turn, error: unknown, id: string): Promise<unknown> {
  if (!isOpError(error) || error.code !== 'not_found' || error.params.id !== id) return error;
  const householdId = turn.actor.householdId;
  const name = householdId ? await deletedRecordName(turn.db.knex, householdId, id) : null;
  return name === null ? error : new OpError('conflict', 'chat.sub.gone', { name });
}

/** A refusal of a press on buttons that can no longer work: the message loses them. */
export async function dropButtonsIfGone(
  turn: Turn,
  error: unknown,
  ref: SentRef | null,
): Promise<void> {
  const gone =
    isOpError(error) &&
    ['chat.sub.gone', 'errors.preview_record_gone', 'errors.preview_changed'].includes(error.key);
  if (gone && ref && turn.channel.clearButtons)
    await turn.channel.clearButtons(ref).catch(() => undefined);
}

/** Today in the household's time zone. */
export async function householdToday(turn: Turn): Promise<{ today: string; currency: string }> {
  const hh = (await turn.invoke('get_household', {})).output as {
    time_zone: string;
    currency: string;
  };
  return { today: localDate(turn.now, hh.time_zone), currency: hh.currency };
}

/** Whether the catalog offers this op to the speaker on chat (a button is drawn only then). */
export function canRun(turn: Turn, opName: string): boolean {
  const op = turn.core.catalog.find((o) => o.name === opName);
  return op !== undefined && offers(op, turn.actor, 'chat');
}

/** Member names by id, for the shares line (only read when there are shares). */
export async function memberNames(turn: Turn): Promise<Map<string, string>> {
  const { output } = await turn.invoke(listMembers.name, {});
  return new Map(listMembers.output.parse(output).members.map((m) => [m.id, m.name]));
}

/** A subscription's status with its date: "Active", "Free trial until 9 Mar", "Paused since…". */
function statusLine(sub: Subscription, locale: Locale): string {
  const date = (d: string | null): string => (d ? formatDate(d, locale) : '');
  switch (sub.status) {
    case 'trial':
      return t(locale, 'chat.sub.status.trial', { date: date(sub.trial_ends_on) });
    case 'paused':
      return t(locale, 'chat.sub.status.paused', { date: date(sub.paused_on) });
    case 'cancelled':
      return t(locale, 'chat.sub.status.cancelled', { date: date(sub.cancelled_on) });
    default:
      return t(locale, 'chat.sub.status.active');
  }
}

/**
 * The lines of a subscription's card: price and cycle, next charge, status, then what is set of
 * category, payment method, tags, shares, contract and privacy. Written by Exhale from the record.
 */
export function subscriptionCardLines(
  sub: Subscription,
  names: ReadonlyMap<string, string>,
  locale: Locale,
): string[] {
  const lines = [
    `${money(sub.amount, sub.currency, locale)} · ${cycleText(sub.cycle, locale)}`,
    sub.next_charge_date
      ? t(locale, 'chat.card.next_charge', { date: formatDate(sub.next_charge_date, locale) })
      : t(locale, 'chat.card.no_next_charge'),
    statusLine(sub, locale),
  ];
  if (sub.category) lines.push(t(locale, 'chat.card.category', { name: sub.category.name }));
  if (sub.payment_method)
    lines.push(t(locale, 'chat.sub.line.method', { name: sub.payment_method.name }));
  if (sub.tags.length > 0)
    lines.push(t(locale, 'chat.sub.line.tags', { tags: sub.tags.map((g) => g.name).join(', ') }));
  if (sub.shares.length > 0)
    lines.push(
      t(locale, 'chat.sub.line.shares', {
        shares: sub.shares
          .map((s) => `${names.get(s.member_id) ?? '?'} ${s.percent.replace(/\.0+$/, '')}%`)
          .join(' · '),
      }),
    );
  if (sub.contract_ends_on)
    lines.push(
      t(locale, 'chat.card.contract_ends', { date: formatDate(sub.contract_ends_on, locale) }),
    );
  if (sub.notes) lines.push(t(locale, 'chat.sub.line.notes', { notes: sub.notes.slice(0, 120) }));
  if (sub.private) lines.push(t(locale, 'chat.card.private'));
  return lines;
}

/**
 * Privacy is set where only its member reads along: in a group everyone does, and a subscription
 * made private there could not be shown to the group that asked (its buttons leave it out there).
 */
const privacyHere = (turn: Turn): boolean => !turn.inGroup;

/** Whether this member can make `sub` private or shared here (its button is drawn only then). */
export const canSetPrivacy = (turn: Turn, sub: Subscription): boolean =>
  privacyHere(turn) && sub.member_id === turn.actor.memberId;

/**
 * Why this privacy cannot be set here, or null: a subscription is made private by its own member
 * (for anyone else it would vanish as it is changed), and not in a group.
 */
export function privacyRefusal(turn: Turn, sub: Subscription, wanted: unknown): string | null {
  if (wanted === undefined) return null;
  if (!privacyHere(turn)) return turn.t('chat.sub.private.in_group', { name: sub.name });
  if (wanted === true && sub.member_id !== turn.actor.memberId)
    return turn.t('chat.sub.private.not_yours', { name: sub.name });
  return null;
}
