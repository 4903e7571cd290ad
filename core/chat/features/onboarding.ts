import { isCurrency, minorUnits } from '../../domain/currencies.ts';
import { findTimeZone } from '../../domain/dates.ts';
import { memberActor } from '../../kernel/actor.ts';
import { createHousehold as createHouseholdOp } from '../../ops/household/createHousehold.ts';
import { joinHousehold } from '../../ops/household/joinHousehold.ts';
import { setAwaiting } from '../flows.ts';
import { decimal } from '../format.ts';
import type { SentRef } from '../types.ts';
import type { Turn } from '../turn.ts';
import { offerLink } from './groups.ts';
import { addMiniAppButton, helpReply } from './help.ts';
import { defineFeature } from '../feature.ts';

/** Currencies offered as buttons on first start, by language; any other can be typed. */
const CURRENCIES: Record<'en' | 'es', string[]> = {
  en: ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'CHF'],
  es: ['EUR', 'MXN', 'USD', 'ARS', 'COP', 'CLP'],
};

/** Likely time zones for a currency; any other can be typed. */
const ZONES: Record<string, string[]> = {
  EUR: [
    'Europe/Madrid',
    'Europe/Berlin',
    'Europe/Paris',
    'Europe/Rome',
    'Europe/Amsterdam',
    'Europe/Lisbon',
    'Atlantic/Canary',
    'Europe/Dublin',
  ],
  USD: [
    'America/New_York',
    'America/Chicago',
    'America/Denver',
    'America/Los_Angeles',
    'America/Anchorage',
    'Pacific/Honolulu',
  ],
  GBP: ['Europe/London'],
  CAD: ['America/Toronto', 'America/Vancouver', 'America/Edmonton', 'America/Halifax'],
  AUD: ['Australia/Sydney', 'Australia/Melbourne', 'Australia/Brisbane', 'Australia/Perth'],
  CHF: ['Europe/Zurich'],
  MXN: ['America/Mexico_City', 'America/Tijuana', 'America/Cancun', 'America/Monterrey'],
  ARS: ['America/Argentina/Buenos_Aires'],
  COP: ['America/Bogota'],
  CLP: ['America/Santiago'],
  PEN: ['America/Lima'],
  BRL: ['America/Sao_Paulo'],
  JPY: ['Asia/Tokyo'],
};

function chunk<T>(items: T[], size: number): T[][] {
  const rows: T[][] = [];
  for (let i = 0; i < items.length; i += size) rows.push(items.slice(i, i + size));
  return rows;
}

/** `/start`: onboarding for a newcomer, an invite code to join, a group to link, or the help. */
export async function start(turn: Turn, args: string): Promise<void> {
  const code = args.trim();
  if (turn.inGroup) {
    if (turn.speaker.newcomer) {
      const reply = turn.reply().say(turn.t('chat.group.newcomer'));
      const link = turn.channel.deepLink('');
      if (link) reply.row(reply.url(turn.t('chat.button.open_private'), link));
      await turn.send(reply);
      return;
    }
    await offerLink(turn);
    return;
  }
  if (code.length > 0 && turn.speaker.newcomer) {
    await join(turn, code);
    return;
  }
  if (!turn.speaker.newcomer) {
    await turn.send(
      helpReply(
        turn,
        code.length > 0
          ? turn.t('errors.already_in_household')
          : turn.t('chat.welcome_back', { name: turn.speaker.memberName ?? '' }),
      ),
    );
    return;
  }
  await askCurrency(turn, null);
}

async function askCurrency(turn: Turn, ref: SentRef | null): Promise<void> {
  const reply = turn.reply();
  reply.say(turn.t('chat.onboarding.welcome', { name: turn.conv.who.displayName }));
  reply.say('');
  reply.say(turn.t('chat.onboarding.ask_currency'));
  for (const row of chunk(CURRENCIES[turn.locale], 3)) {
    reply.row(
      ...row.map((currency) => reply.action(currency, { t: 'onboard_currency', currency })),
    );
  }
  reply.row(
    reply.action(turn.t('chat.button.other'), {
      t: 'onboard_other',
      step: 'currency',
      currency: null,
    }),
  );
  await turn.update(ref, reply);
}

/** Second step: the time zone, with likely ones for the chosen currency. */
export async function askTimeZone(
  turn: Turn,
  currency: string,
  ref: SentRef | null,
): Promise<void> {
  const reply = turn.reply();
  reply.say(turn.t('chat.onboarding.currency_chosen', { currency }));
  reply.say(turn.t('chat.onboarding.ask_time_zone'));
  const zones = ZONES[currency] ?? ['Europe/London', 'UTC'];
  for (const row of chunk(zones, 2)) {
    reply.row(
      ...row.map((tz) => reply.action(tz.replace(/_/g, ' '), { t: 'onboard_tz', currency, tz })),
    );
  }
  reply.row(
    reply.action(turn.t('chat.button.other'), { t: 'onboard_other', step: 'tz', currency }),
  );
  await turn.update(ref, reply);
}

/** "Other…": the next text message answers the question. */
export async function askTyped(
  turn: Turn,
  step: 'currency' | 'tz',
  currency: string | null,
  ref: SentRef | null,
): Promise<void> {
  if (step === 'tz' && currency !== null) {
    await setAwaiting(
      turn.db,
      turn.conversationKey,
      turn.owner,
      { t: 'onboard_tz', currency },
      turn.now,
    );
    await turn.update(ref, turn.reply().say(turn.t('chat.onboarding.type_time_zone')));
    return;
  }
  await setAwaiting(turn.db, turn.conversationKey, turn.owner, { t: 'onboard_currency' }, turn.now);
  await turn.update(ref, turn.reply().say(turn.t('chat.onboarding.type_currency')));
}

/** A typed currency code (after "Other…"). */
export async function typedCurrency(turn: Turn, text: string): Promise<void> {
  const code = text.trim().toUpperCase();
  if (!isCurrency(code)) {
    await setAwaiting(
      turn.db,
      turn.conversationKey,
      turn.owner,
      { t: 'onboard_currency' },
      turn.now,
    );
    await turn.say(turn.t('chat.onboarding.bad_currency', { text: text.trim().slice(0, 40) }));
    return;
  }
  await askTimeZone(turn, code, null);
}

/** A typed time zone (after "Other…"). */
export async function typedTimeZone(turn: Turn, currency: string, text: string): Promise<void> {
  const tz = findTimeZone(text);
  if (tz === null) {
    await setAwaiting(
      turn.db,
      turn.conversationKey,
      turn.owner,
      { t: 'onboard_tz', currency },
      turn.now,
    );
    await turn.say(turn.t('chat.onboarding.bad_time_zone', { text: text.trim().slice(0, 64) }));
    return;
  }
  await createHousehold(turn, currency, tz, null);
}

function ownerName(turn: Turn): string {
  const name = turn.conv.who.displayName.trim().slice(0, 120);
  return name.length > 0 ? name : turn.t('chat.onboarding.default_name');
}

/** Last step: creates the household with `create_household`, in the person's language. */
export async function createHousehold(
  turn: Turn,
  currency: string,
  tz: string,
  ref: SentRef | null,
): Promise<void> {
  if (!turn.speaker.newcomer) {
    await turn.say(turn.t('errors.already_in_household'));
    return;
  }
  const name = ownerName(turn);
  const result = await turn.invoke(createHouseholdOp.name, {
    name: turn.t('chat.onboarding.household_name', { name }),
    currency,
    time_zone: tz,
    language: turn.locale,
    owner_name: name,
  });
  const { household, member } = createHouseholdOp.output.parse(result.output);
  becomeMember(turn, { ...member, household_id: household.id });
  const reply = turn.reply();
  reply.setCard({
    title: `🏠 ${turn.t('chat.onboarding.ready_title')}`,
    lines: [
      household.name,
      turn.t('chat.settings.currency', { currency }),
      turn.t('chat.settings.time_zone', { tz }),
    ],
  });
  reply.say(nextSteps(turn, currency));
  addMiniAppButton(turn, reply);
  await turn.update(ref, reply);
}

/** `/start <code>`: joins a household with `join_household`. */
async function join(turn: Turn, code: string): Promise<void> {
  const result = await turn.invoke(joinHousehold.name, {
    code,
    name: ownerName(turn),
    language: turn.locale,
  });
  const { household, member } = joinHousehold.output.parse(result.output);
  becomeMember(turn, { ...member, household_id: household.id });
  const reply = turn.reply();
  reply.setCard({
    title: `🏠 ${turn.t('chat.onboarding.joined_title', { household: household.name })}`,
    lines: [],
  });
  reply.say(nextSteps(turn, household.currency));
  addMiniAppButton(turn, reply);
  await turn.send(reply);
}

/**
 * What to do next, with an /add line that adds at once as it is shown: the household's currency
 * is in it (a line without one is previewed first, to choose it), its price written as that
 * currency has decimals, and every command as it is typed on this channel.
 */
function nextSteps(turn: Turn, currency: string): string {
  const digits = minorUnits(currency);
  const price = digits === 0 ? '1500' : digits === 3 ? '15.5' : '15.99';
  const command = (name: string) => turn.command(name);
  return turn.t('chat.onboarding.next_steps', {
    example: `${command('add')} Netflix ${decimal(price, turn.locale)} ${currency} ${turn.t('chat.onboarding.example_cycle')} 5`,
    list: command('list'),
    upcoming: command('upcoming'),
    settings: command('settings'),
    help: command('help'),
  });
}

/** From now on the person speaks as the new member (the terminal keeps its actor in the conversation). */
function becomeMember(
  turn: Turn,
  member: { id: string; household_id: string; name: string; role: string; language: string },
): void {
  const actor = memberActor(member, turn.conv.who.channel);
  if (turn.conv.who.actor) turn.conv.who.actor = actor;
  turn.speaker = { actor, locale: actor.locale, newcomer: false, memberName: member.name };
}

/** First contact: /start (also with an invite code or a group link), and the household set-up. */
export const onboardingFeature = defineFeature({
  name: 'onboarding',
  reaches: ['create_household', 'join_household'],
  commands: [
    {
      command: 'start',
      op: null,
      place: 'any',
      newcomer: true,
      beforeLink: true,
      notOn: ['web'],
      run: start,
    },
  ],
  actions: {
    onboard_currency: (turn, action, ref) => askTimeZone(turn, action.currency, ref),
    onboard_tz: (turn, action, ref) => createHousehold(turn, action.currency, action.tz, ref),
    onboard_other: (turn, action, ref) => askTyped(turn, action.step, action.currency, ref),
  },
  answers: {
    onboard_currency: (turn, _awaiting, text) => typedCurrency(turn, text),
    onboard_tz: (turn, awaiting, text) => typedTimeZone(turn, awaiting.currency, text),
  },
});
