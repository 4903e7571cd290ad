import { type Locale, t, TEXT_KEYS } from '../i18n/index.ts';
import type { AnyOp } from '../kernel/op.ts';
import { cycleText, formatDate, formatInstant, money } from './format.ts';
import type { Card } from './types.ts';

/**
 * Cards are written by Exhale from an op's result, never by a model. One card shape per kind of
 * result (a subscription, a charge, a member…), recognised by its fields, so every op that returns
 * one of them gets a card without a hand-written twin.
 */

type Obj = Record<string, unknown>;

const KNOWN_TEXTS = new Set(TEXT_KEYS);

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function has(o: Obj, ...keys: string[]): boolean {
  return keys.every((k) => k in o);
}

/** The title for a finished op: a chat text when one exists (`chat.done.<op>`), else the op's title. */
export function doneTitle(op: AnyOp, output: unknown, locale: Locale): string {
  const key = `chat.done.${op.name}`;
  if (!KNOWN_TEXTS.has(key)) return op.title;
  const name = isObj(output) ? (str(output.name) ?? str(output.subscription_name) ?? '') : '';
  return t(locale, key, { name });
}

export function subscriptionLines(sub: Obj, locale: Locale): string[] {
  const lines: string[] = [];
  const cycle = isObj(sub.cycle)
    ? { unit: String(sub.cycle.unit), every: Number(sub.cycle.every) }
    : { unit: 'month', every: 1 };
  lines.push(
    `${money(String(sub.amount), String(sub.currency), locale)} · ${cycleText(cycle, locale)}`,
  );
  const next = str(sub.next_charge_date);
  lines.push(
    next
      ? t(locale, 'chat.card.next_charge', { date: formatDate(next, locale) })
      : t(locale, 'chat.card.no_next_charge'),
  );
  const status = str(sub.status);
  if (status && status !== 'active') lines.push(t(locale, `chat.status.${status}`));
  const trial = str(sub.trial_ends_on);
  if (trial) lines.push(t(locale, 'chat.card.trial_ends', { date: formatDate(trial, locale) }));
  const contract = str(sub.contract_ends_on);
  if (contract)
    lines.push(t(locale, 'chat.card.contract_ends', { date: formatDate(contract, locale) }));
  if (isObj(sub.category))
    lines.push(t(locale, 'chat.card.category', { name: String(sub.category.name) }));
  if (sub.private === true) lines.push(t(locale, 'chat.card.private'));
  return lines;
}

function chargeLines(charge: Obj, locale: Locale): string[] {
  return [
    `${money(String(charge.amount), String(charge.currency), locale)} · ${formatDate(String(charge.due_date), locale)}`,
    t(locale, `chat.charge.${String(charge.status)}`),
  ];
}

function memberLines(member: Obj, locale: Locale): string[] {
  const offsets = Array.isArray(member.reminder_offsets)
    ? (member.reminder_offsets as number[])
    : [];
  return [
    t(locale, 'chat.settings.language', {
      language: t(locale, `chat.language.${String(member.language)}`),
    }),
    offsets.length === 0
      ? t(locale, 'chat.settings.reminders_off')
      : t(locale, 'chat.settings.reminders', {
          days: offsets.join(', '),
          time: String(member.reminder_time),
        }),
  ];
}

function householdLines(h: Obj, locale: Locale): string[] {
  return [
    t(locale, 'chat.settings.currency', { currency: String(h.currency) }),
    t(locale, 'chat.settings.time_zone', { tz: String(h.time_zone) }),
  ];
}

/**
 * Lines describing an op's result, by its shape; a generic fallback names the op. Instants (an
 * expiry) are written in `timeZone`, the household's.
 */
export function resultLines(output: unknown, locale: Locale, timeZone = 'UTC'): string[] {
  if (!isObj(output)) return [];
  if (has(output, 'amount', 'cycle', 'next_charge_date')) return subscriptionLines(output, locale);
  if (has(output, 'subscription_name', 'due_date', 'status')) return chargeLines(output, locale);
  if (has(output, 'reminder_offsets', 'reminder_time')) return memberLines(output, locale);
  if (has(output, 'household', 'member') && isObj(output.household)) {
    return [String(output.household.name), ...householdLines(output.household, locale)];
  }
  if (has(output, 'currency', 'time_zone')) return householdLines(output, locale);
  if (Array.isArray(output.undone)) {
    return (output.undone as Obj[]).map((u) => `↩️ ${String(u.summary)}`);
  }
  if (has(output, 'code', 'expires_at'))
    return [
      t(locale, 'chat.invite.expires', {
        date: formatInstant(String(output.expires_at), locale, timeZone),
      }),
    ];
  return [];
}

/** The card for a change made from chat, its instants in the household's `timeZone`. */
export function changeCard(op: AnyOp, output: unknown, locale: Locale, timeZone: string): Card {
  return {
    title: `✅ ${doneTitle(op, output, locale)}`,
    lines: resultLines(output, locale, timeZone),
  };
}
