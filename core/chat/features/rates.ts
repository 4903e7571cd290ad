import { formatRate } from '../../domain/fx.ts';
import { OpError } from '../../errors/index.ts';
import { offers } from '../../kernel/surface.ts';
import { defineFeature } from '../feature.ts';
import { setAwaiting } from '../flows.ts';
import { decimal, formatDate } from '../format.ts';
import type { Turn } from '../turn.ts';
import { showChange } from './changes.ts';

/**
 * /rates: the exchange rates the household's totals use (list_exchange_rates), and setting one by
 * hand (set_exchange_rate, owner only): `/rates USD 0.93` means 1 USD = 0.93 in the household
 * currency, as the list shows them; a Spanish decimal comma is read too. The op stores rates per
 * euro, so the value is turned into that here from the household currency's own rate.
 */

interface RateItem {
  currency: string;
  subscription_count: number;
  missing: boolean;
  per_eur: string | null;
  source: 'ecb' | 'manual' | null;
  rate_date: string | null;
  stale: boolean;
  in_household_currency: string | null;
}

interface Rates {
  date: string;
  household_currency: string;
  items: RateItem[];
}

async function rates(turn: Turn): Promise<Rates> {
  return (await turn.invoke('list_exchange_rates', {})).output as Rates;
}

function canSet(turn: Turn): boolean {
  return (
    turn.hasOp('set_exchange_rate') && offers(turn.core.op('set_exchange_rate'), turn.actor, 'chat')
  );
}

async function showRates(turn: Turn, lead?: string): Promise<void> {
  const r = await rates(turn);
  const hh = r.household_currency;
  const others = r.items.filter((i) => i.currency !== hh);
  const lines = others.map((i) => {
    if (i.missing || i.in_household_currency === null)
      return turn.t('manage.rates.missing', { currency: i.currency });
    return turn.t(`manage.rates.line.${i.source ?? 'ecb'}`, {
      currency: i.currency,
      value: decimal(i.in_household_currency, turn.locale),
      household: hh,
      date: formatDate(i.rate_date ?? r.date, turn.locale),
    });
  });
  const reply = turn.reply().setCard({
    title: `💱 ${turn.t('manage.rates.title', { currency: hh })}`,
    lines: lines.length > 0 ? lines : [turn.t('manage.rates.none', { currency: hh })],
  });
  if (lead) reply.say(lead);
  if (canSet(turn)) {
    reply.say(turn.t('manage.rates.hint', { household: hh }));
    const buttons = others.map((i) =>
      reply.action(turn.t('manage.rates.set', { currency: i.currency }), {
        t: 'rate_ask',
        currency: i.currency,
      }),
    );
    for (let i = 0; i < buttons.length; i += 3) reply.row(...buttons.slice(i, i + 3));
  }
  await turn.send(reply);
}

/** "0,93" or "0.93" → "0.93"; null when it is not a positive number. */
function readNumber(text: string): string | null {
  const cleaned = text.trim().replace(',', '.');
  return /^\d{1,9}(\.\d{1,10})?$/.test(cleaned) && Number(cleaned) > 0 ? cleaned : null;
}

/**
 * Sets 1 `currency` = `value` household currency. The op wants units per euro: for a euro
 * household that is 1/value; otherwise the household currency's own per-euro rate over value.
 */
async function setRate(turn: Turn, currency: string, valueText: string): Promise<void> {
  const value = readNumber(valueText);
  if (!value) throw new OpError('invalid_input', 'manage.rates.bad_value', { value: valueText });
  const r = await rates(turn);
  const hh = r.household_currency;
  let perEur: number;
  if (currency === hh) perEur = Number(value);
  else if (hh === 'EUR') perEur = 1 / Number(value);
  else {
    const own = r.items.find((i) => i.currency === hh)?.per_eur;
    if (!own) throw new OpError('conflict', 'manage.rates.household_missing', { currency: hh });
    perEur = Number(own) / Number(value);
  }
  // Ten decimals (the op's most): typed back through the list, 0.93 reads 0.93 again.
  const rate = perEur.toFixed(10).replace(/\.?0+$/, '');
  const result = await turn.invoke('set_exchange_rate', { currency, rate });
  const out = result.output as { date: string };
  await showChange(turn, 'set_exchange_rate', result, null, [
    turn.t('manage.rates.saved', {
      currency,
      value: decimal(currency === hh ? formatRate(1 / perEur) : value, turn.locale),
      household: currency === hh ? 'EUR' : hh,
      date: formatDate(out.date, turn.locale),
    }),
  ]);
}

async function command(turn: Turn, args: string): Promise<void> {
  const trimmed = args.trim();
  if (trimmed === '') return showRates(turn);
  const match = /^([A-Za-z]{3})\s*(?:=\s*)?(\S+)?$/.exec(trimmed);
  if (!match) {
    await turn.say(turn.t('manage.rates.usage'));
    return;
  }
  const currency = (match[1] ?? '').toUpperCase();
  if (!match[2]) return askRate(turn, currency);
  await setRate(turn, currency, match[2]);
}

async function askRate(turn: Turn, currency: string): Promise<void> {
  const r = await rates(turn);
  await setAwaiting(
    turn.db,
    turn.conversationKey,
    turn.owner,
    { t: 'rate_value', currency },
    turn.now,
  );
  await turn.say(turn.t('manage.rates.ask', { currency, household: r.household_currency }));
}

export const ratesFeature = defineFeature({
  name: 'rates',
  commands: [
    { command: 'rates', op: 'list_exchange_rates', place: 'any', newcomer: false, run: command },
  ],
  reaches: ['set_exchange_rate'],
  actions: {
    rate_ask: (turn, action) => askRate(turn, action.currency),
  },
  answers: {
    rate_value: (turn, awaiting, text) => setRate(turn, awaiting.currency, text),
  },
});
