import { z } from 'zod';

import { isValidDate } from '../domain/dates.ts';
import type { Actor } from '../kernel/actor.ts';
import type { Core } from '../kernel/core.ts';
import { isOpError } from '../errors/index.ts';
import { t } from '../i18n/index.ts';
import type { ToolSpec } from './model.ts';

/**
 * `show_screen`: the model picks what to show (a kind and which records); Exhale reads every value
 * from the database through the read ops, as the member, and renders it. The model never supplies
 * a figure that reaches the screen.
 */
const Input = z.strictObject({
  kind: z.enum(['subscriptions', 'charges', 'totals']),
  subscription_ids: z.array(z.string().min(1).max(90)).min(1).max(50).optional(),
  subscription_id: z.string().min(1).max(90).optional(),
  from: z.string().refine(isValidDate, 'from must be a date YYYY-MM-DD').optional(),
  to: z.string().refine(isValidDate, 'to must be a date YYYY-MM-DD').optional(),
  group_by: z.enum(['none', 'category', 'payment_method', 'member', 'tag']).optional(),
});

export const SHOW_SCREEN: ToolSpec = {
  name: 'show_screen',
  description:
    'Shows the member a screen Exhale renders from the database: kind "subscriptions" (give subscription_ids), "charges" (give from and to, optionally subscription_id) or "totals" (optionally from, to and group_by). Use it to show lists or figures instead of typing them out. Returns one line saying what was shown or what was wrong.',
  parameters: {
    type: 'object',
    additionalProperties: false,
    required: ['kind'],
    properties: {
      kind: { type: 'string', enum: ['subscriptions', 'charges', 'totals'] },
      subscription_ids: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        maxItems: 50,
        description: 'For kind subscriptions: which ones, in order.',
      },
      subscription_id: { type: 'string', description: 'For kind charges: only this subscription.' },
      from: {
        type: 'string',
        description: 'YYYY-MM-DD. Charges: required. Totals: a period start (with to).',
      },
      to: {
        type: 'string',
        description: 'YYYY-MM-DD. Charges: required. Totals: a period end (with from).',
      },
      group_by: {
        type: 'string',
        enum: ['none', 'category', 'payment_method', 'member', 'tag'],
        description: 'For kind totals.',
      },
    },
  },
};

type Obj = Record<string, unknown>;

/** What a channel shows: the records as the read op returned them, and a card Exhale wrote from them. */
export type Screen =
  | { kind: 'subscriptions'; items: Obj[]; title: string; lines: string[] }
  | {
      kind: 'charges';
      from: string;
      to: string;
      /** The one subscription asked for, or null for every charge of the period. */
      subscription_id: string | null;
      items: Obj[];
      title: string;
      lines: string[];
    }
  | { kind: 'totals'; totals: Obj; title: string; lines: string[] };

export type ScreenResult =
  { ok: true; screen: Screen; note: string } | { ok: false; problem: string };

const MAX_LINES = 25;

export async function showScreen(
  core: Core,
  actor: Actor,
  args: Record<string, unknown>,
): Promise<ScreenResult> {
  const parsed = Input.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') ?? '';
    const what =
      issue?.code === 'unrecognized_keys'
        ? `unknown field ${issue.keys.join(', ')}`
        : (issue?.message ?? 'invalid');
    return { ok: false, problem: `show_screen: ${where ? `${where}: ` : ''}${what}` };
  }
  const input = parsed.data;
  const locale = actor.locale;
  try {
    switch (input.kind) {
      case 'subscriptions': {
        if (!input.subscription_ids)
          return { ok: false, problem: 'show_screen: subscriptions needs subscription_ids' };
        const items: Obj[] = [];
        for (const id of input.subscription_ids) {
          try {
            items.push(
              (await core.invoke('get_subscription', actor, { id }, { surface: 'assistant' }))
                .output as Obj,
            );
          } catch (error) {
            if (isOpError(error) && error.code === 'not_found')
              return { ok: false, problem: `show_screen: no subscription ${id}` };
            throw error;
          }
        }
        const lines = items
          .slice(0, MAX_LINES)
          .map(
            (s) =>
              `${String(s.name)} · ${String(s.amount)} ${String(s.currency)} · ${nextText(s, locale)}`,
          );
        return {
          ok: true,
          screen: {
            kind: 'subscriptions',
            items,
            title: t(locale, 'assistant.screen.subscriptions', { count: items.length }),
            lines,
          },
          note: `Shown to the member: ${items.length} subscriptions.`,
        };
      }
      case 'charges': {
        if (!input.from || !input.to)
          return { ok: false, problem: 'show_screen: charges needs from and to' };
        const out = (
          await core.invoke('list_charges', actor, {
            from: input.from,
            to: input.to,
            ...(input.subscription_id ? { subscription_id: input.subscription_id } : {}),
          })
        ).output as { items: Obj[] };
        const lines = out.items
          .slice(0, MAX_LINES)
          .map(
            (c) =>
              `${String(c.due_date)} · ${String(c.subscription_name)} · ${String(c.amount)} ${String(c.currency)} · ${t(locale, `assistant.charge.${String(c.status)}`)}`,
          );
        if (out.items.length > MAX_LINES)
          lines.push(t(locale, 'assistant.screen.more', { count: out.items.length - MAX_LINES }));
        return {
          ok: true,
          screen: {
            kind: 'charges',
            from: input.from,
            to: input.to,
            subscription_id: input.subscription_id ?? null,
            items: out.items,
            title: t(locale, 'assistant.screen.charges', { from: input.from, to: input.to }),
            lines,
          },
          note: `Shown to the member: ${out.items.length} charges from ${input.from} to ${input.to}.`,
        };
      }
      case 'totals': {
        const totals = (
          await core.invoke('get_totals', actor, {
            ...(input.from ? { from: input.from } : {}),
            ...(input.to ? { to: input.to } : {}),
            group_by: input.group_by ?? 'none',
          })
        ).output as Obj;
        return {
          ok: true,
          screen: {
            kind: 'totals',
            totals,
            title: t(locale, 'assistant.screen.totals'),
            lines: totalsLines(totals, locale),
          },
          note: 'Shown to the member: the totals.',
        };
      }
      default: {
        const unreachable: never = input.kind;
        return unreachable;
      }
    }
  } catch (error) {
    if (isOpError(error) && error.code !== 'internal')
      return { ok: false, problem: `show_screen: ${error.render('en').replaceAll('\n', ' ')}` };
    throw error;
  }
}

function nextText(s: Obj, locale: 'en' | 'es'): string {
  return typeof s.next_charge_date === 'string'
    ? t(locale, 'assistant.screen.next', { date: s.next_charge_date })
    : t(locale, `assistant.status.${String(s.status)}`);
}

function totalsLines(totals: Obj, locale: 'en' | 'es'): string[] {
  const currency = String(totals.currency);
  const figures = (
    typeof totals.totals === 'object' && totals.totals !== null ? totals.totals : {}
  ) as Obj;
  const lines: string[] = [];
  for (const key of ['monthly', 'yearly', 'total', 'paid', 'expected']) {
    if (typeof figures[key] === 'string')
      lines.push(`${t(locale, `assistant.figure.${key}`)}: ${String(figures[key])} ${currency}`);
  }
  const groups = Array.isArray(totals.groups) ? (totals.groups as Obj[]) : [];
  for (const g of groups.slice(0, MAX_LINES)) {
    const main =
      typeof g.monthly === 'string' ? g.monthly : typeof g.total === 'string' ? g.total : '';
    lines.push(`${String(g.name)}: ${main} ${currency}`);
  }
  const conversion = (
    typeof totals.conversion === 'object' && totals.conversion !== null ? totals.conversion : {}
  ) as Obj;
  if (conversion.partial === true) lines.push(t(locale, 'assistant.screen.partial'));
  return lines;
}
