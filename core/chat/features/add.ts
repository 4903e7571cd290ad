import { localDate } from '../../domain/dates.ts';
import { Name } from '../../domain/schemas.ts';
import { searchKey } from '../../domain/text.ts';
import { isOpError } from '../../errors/index.ts';
import { amountProblem, unsureAmount } from '../amountCheck.ts';
import type { AddDraft } from '../actions.ts';
import { subscriptionLines } from '../cards.ts';
import { setAwaiting } from '../flows.ts';
import { parseAddLine, unclearCurrencyWord } from '../parseAdd.ts';
import type { SentRef } from '../types.ts';
import type { Turn } from '../turn.ts';
import { showChange } from './changes.ts';
import { showSubscriptionCard } from './subscriptionCard.ts';
import { defineFeature } from '../feature.ts';

const CYCLES = ['month', 'year', 'week'] as const;
const COMMON_CURRENCIES = ['EUR', 'USD', 'GBP'];

interface HouseholdInfo {
  currency: string;
  time_zone: string;
}

async function householdInfo(turn: Turn): Promise<HouseholdInfo> {
  return (await turn.invoke('get_household', {})).output as HouseholdInfo;
}

/** `/add <line>`; without a line it asks for one. */
export async function startAdd(turn: Turn, args: string): Promise<void> {
  if (args.trim().length === 0) {
    await setAwaiting(turn.db, turn.conversationKey, turn.owner, { t: 'add_line' }, turn.now);
    await turn.say(`${turn.t('chat.add.ask_line')}\n${turn.t('chat.help.add_example')}`);
    return;
  }
  await addFromLine(turn, args);
}

/** Reads a one-line subscription; adds it at once when complete, otherwise asks or previews. */
export async function addFromLine(turn: Turn, line: string): Promise<void> {
  const hh = await householdInfo(turn);
  const parsed = parseAddLine(line, localDate(turn.now, hh.time_zone), hh.currency);
  // "pesos" in a household that counts in euros: which pesos? Asked by its code.
  const unclear = unclearCurrencyWord(parsed.unknown, hh.currency);
  if (unclear !== null) {
    await turn.say(
      `${turn.t('chat.add.which_currency', { word: unclear })}\n${turn.t('chat.help.add_example')}`,
    );
    return;
  }
  if (parsed.unknown.length > 0) {
    await turn.say(
      `${turn.t('chat.add.unknown_words', { words: parsed.unknown.join(' ') })}\n${turn.t('chat.help.add_example')}`,
    );
    return;
  }
  if (parsed.name === null) {
    await setAwaiting(turn.db, turn.conversationKey, turn.owner, { t: 'add_line' }, turn.now);
    await turn.say(`${turn.t('chat.add.ask_line')}\n${turn.t('chat.help.add_example')}`);
    return;
  }
  // A name longer than a name can be: said in a sentence about the name, and the line asked again.
  const longest = Name.maxLength ?? Infinity;
  if (parsed.name.length > longest) {
    await setAwaiting(turn.db, turn.conversationKey, turn.owner, { t: 'add_line' }, turn.now);
    await turn.say(turn.t('chat.add.name_too_long', { length: parsed.name.length, max: longest }));
    return;
  }
  const partial = {
    name: parsed.name,
    currency: parsed.currency,
    cycle: parsed.cycle,
    ...(parsed.every > 1 ? { every: parsed.every } : {}),
    date: parsed.date,
    ...(parsed.trial ? { trial: parsed.trial } : {}),
  };
  // A price it cannot store ("-5", "99999999999") is said in one sentence and asked for again.
  const problem =
    parsed.amount === null
      ? null
      : amountProblem(
          turn.locale,
          parsed.amountTyped ?? parsed.amount,
          parsed.amount,
          parsed.currency ?? hh.currency,
        );
  if (parsed.amount === null || problem !== null) {
    await setAwaiting(
      turn.db,
      turn.conversationKey,
      turn.owner,
      { t: 'add_amount', draft: partial },
      turn.now,
    );
    await turn.say(
      problem ??
        (parsed.unreadPrice !== null
          ? turn.t('chat.polish.add.unread_price', {
              words: parsed.unreadPrice,
              name: parsed.name,
            })
          : turn.t('chat.add.ask_amount', { name: parsed.name })),
    );
    return;
  }
  const draft: AddDraft = { ...partial, amount: parsed.amount };
  // "You already have Netflix": said first, with its card, and a button to add a second anyway.
  const existing = await sameName(turn, draft.name);
  if (existing) {
    await showExisting(turn, existing, draft);
    return;
  }
  if (
    !parsed.unsure &&
    draft.currency !== null &&
    draft.cycle !== null &&
    (draft.date ?? draft.trial ?? null) !== null
  )
    await confirmAdd(turn, draft, null);
  else
    await previewAdd(
      turn,
      draft,
      null,
      hh,
      parsed.unsure ? unsureNote(turn, draft, hh) : undefined,
    );
}

/** The answer to "how much does it cost?": the price, and any cycle, currency or day said with it. */
export async function typedAmount(
  turn: Turn,
  draft: Omit<AddDraft, 'amount'>,
  text: string,
): Promise<void> {
  const hh = await householdInfo(turn);
  const parsed = parseAddLine(
    `${draft.name} ${text.trim()}`,
    localDate(turn.now, hh.time_zone),
    draft.currency ?? hh.currency,
  );
  // The price is asked again, with what was wrong with this answer.
  const askAgain = async (sentence: string): Promise<void> => {
    await setAwaiting(
      turn.db,
      turn.conversationKey,
      turn.owner,
      { t: 'add_amount', draft },
      turn.now,
    );
    await turn.say(sentence);
  };
  if (parsed.amount === null || parsed.name !== draft.name || parsed.unknown.length > 0) {
    await askAgain(turn.t('chat.add.bad_amount', { name: draft.name }));
    return;
  }
  const problem = amountProblem(
    turn.locale,
    parsed.amountTyped ?? parsed.amount,
    parsed.amount,
    draft.currency ?? parsed.currency ?? hh.currency,
  );
  if (problem !== null) {
    await askAgain(problem);
    return;
  }
  const every = draft.cycle !== null ? draft.every : parsed.every > 1 ? parsed.every : undefined;
  const full: AddDraft = {
    name: draft.name,
    amount: parsed.amount,
    currency: draft.currency ?? parsed.currency,
    cycle: draft.cycle ?? parsed.cycle,
    ...(every !== undefined ? { every } : {}),
    date: draft.date ?? parsed.date,
    ...((draft.trial ?? parsed.trial) ? { trial: draft.trial ?? parsed.trial } : {}),
  };
  await previewAdd(turn, full, null, hh, parsed.unsure ? unsureNote(turn, full, hh) : undefined);
}

/** Says how an amount that reads two ways ("1.200") was read, and how to say the other. */
function unsureNote(turn: Turn, draft: AddDraft, hh: HouseholdInfo): string {
  // Both amounts in the reader's notation: "1200,00 EUR … escrito 1,20" in Spanish.
  return turn.t(
    'chat.add.unsure_amount',
    unsureAmount(draft.amount, draft.currency ?? hh.currency, turn.locale),
  );
}

function toInput(draft: AddDraft): Record<string, unknown> {
  return {
    name: draft.name,
    amount: draft.amount,
    ...(draft.currency ? { currency: draft.currency } : {}),
    cycle: { unit: draft.cycle ?? 'month', every: draft.every ?? 1 },
    // A trial turns into a paid subscription on its last day: its first charge, unless said.
    ...(draft.date || draft.trial ? { first_charge_date: draft.date ?? draft.trial } : {}),
    ...(draft.trial ? { status: 'trial', trial_ends_on: draft.trial } : {}),
  };
}

/**
 * A preview of the subscription, made by a dry run of `create_subscription` (so it shows exactly
 * what adding would do), with buttons to fix the cycle and currency, add it or cancel.
 */
export async function previewAdd(
  turn: Turn,
  draft: AddDraft,
  ref: SentRef | null,
  hh?: HouseholdInfo,
  note?: string,
  anyway = false,
): Promise<void> {
  const info = hh ?? (await householdInfo(turn));
  let output: Record<string, unknown>;
  try {
    output = (await turn.invoke('create_subscription', toInput(draft), { dryRun: true }))
      .output as Record<string, unknown>;
  } catch (error) {
    if (!isOpError(error)) throw error;
    await turn.update(
      ref,
      turn.reply().say(error.render(turn.locale)).say(turn.t('chat.help.add_example')),
    );
    return;
  }
  const reply = turn.reply();
  reply.setCard({
    title: `📝 ${turn.t('chat.add.preview_title', { name: draft.name })}`,
    lines: subscriptionLines(output, turn.locale),
  });
  if (note) reply.say(note);
  const duplicate = anyway ? null : await duplicateNote(turn, draft.name);
  if (duplicate) reply.say(duplicate);
  reply.say(turn.t('chat.add.preview_hint'));
  const cycle = draft.cycle ?? 'month';
  const every = draft.every ?? 1;
  // The line's own cycle ("quarterly", "daily") stays offered, checked, beside the plain ones.
  const plain = every === 1 && (CYCLES as readonly string[]).includes(cycle);
  const own = plain
    ? []
    : [
        reply.action(
          `✓ ${every === 1 ? turn.t(`chat.cycle.${cycle}.adjective`) : turn.t(`chat.cycle.${cycle}.other`, { n: every })}`,
          { t: 'add_set', draft },
        ),
      ];
  reply.row(
    ...own,
    ...CYCLES.map((unit) =>
      reply.action(
        `${every === 1 && unit === cycle ? '✓ ' : ''}${turn.t(`chat.cycle.${unit}.adjective`)}`,
        {
          t: 'add_set',
          draft: { ...draftWithout(draft), cycle: unit },
        },
      ),
    ),
  );
  const currency = draft.currency ?? info.currency;
  const options = [info.currency, ...COMMON_CURRENCIES.filter((c) => c !== info.currency)].slice(
    0,
    3,
  );
  if (!options.includes(currency)) options[2] = currency;
  reply.row(
    ...options.map((c) =>
      reply.action(`${c === currency ? '✓ ' : ''}${c}`, {
        t: 'add_set',
        draft: { ...draft, currency: c },
      }),
    ),
  );
  reply.row(
    reply.action(`✅ ${turn.t('chat.button.add')}`, {
      t: 'add_confirm',
      draft: { ...draft, cycle, currency },
    }),
    reply.action(`✖️ ${turn.t('chat.button.cancel')}`, { t: 'cancel' }),
  );
  await turn.update(ref, reply);
}

/** The draft with a plain cycle of one unit. */
function draftWithout(draft: AddDraft): AddDraft {
  const { every: _every, ...rest } = draft;
  return rest;
}

/**
 * Creates the subscription for real and shows it with Undo and a button to its card (and a word
 * if the name was taken meanwhile: a second one of a name is allowed).
 */
export async function confirmAdd(
  turn: Turn,
  draft: AddDraft,
  ref: SentRef | null,
  anyway = false,
): Promise<void> {
  const note = anyway ? null : await duplicateNote(turn, draft.name);
  const result = await turn.invoke('create_subscription', toInput(draft));
  const id = (result.output as { id?: unknown }).id;
  await showChange(turn, 'create_subscription', result, ref, [], {
    card: typeof id === 'string' ? id : null,
  });
  if (note) await turn.say(note);
}

/** A subscription the household already has under this name (ignoring case and accents). */
async function sameName(turn: Turn, name: string): Promise<string | null> {
  // The search takes at most 100 characters of a name of up to 120: its start finds every
  // subscription of that name, and the exact name is compared below.
  const found = await turn.invoke('list_subscriptions', { text: name.slice(0, 100), limit: 100 });
  const items = (found.output as { items: Array<{ id: string; name: string }> }).items;
  return items.find((s) => searchKey(s.name) === searchKey(name))?.id ?? null;
}

/** "You already have Netflix": a second subscription of the same name is allowed, but said. */
async function duplicateNote(turn: Turn, name: string): Promise<string | null> {
  return (await sameName(turn, name)) ? turn.t('chat.add.duplicate', { name }) : null;
}

/** The one the household has, on its card, and a button to add the new one anyway. */
async function showExisting(turn: Turn, id: string, draft: AddDraft): Promise<void> {
  await showSubscriptionCard(turn, id, null, {
    title: (sub) => `ℹ️ ${turn.t('chat.sub.already_have', { name: sub.name })}`,
    extra: (reply) =>
      reply.row(
        reply.action(`➕ ${turn.t('chat.sub.button.add_anyway', { name: draft.name })}`, {
          t: 'add_anyway',
          draft,
        }),
      ),
  });
}

/** "Add a second one anyway": complete drafts are added, others previewed (without the warning). */
async function addAnyway(turn: Turn, draft: AddDraft, ref: SentRef | null): Promise<void> {
  if (ref && turn.channel.clearButtons) await turn.channel.clearButtons(ref);
  if (
    draft.currency !== null &&
    draft.cycle !== null &&
    (draft.date ?? draft.trial ?? null) !== null
  )
    await confirmAdd(turn, draft, null, true);
  else await previewAdd(turn, draft, null, undefined, undefined, true);
}

/** /add: a subscription from one line, or asked for step by step, previewed before it is created. */
export const addFeature = defineFeature({
  name: 'add',
  commands: [
    { command: 'add', op: 'create_subscription', place: 'any', newcomer: false, run: startAdd },
  ],
  actions: {
    add_set: (turn, action, ref) => previewAdd(turn, action.draft, ref),
    add_confirm: (turn, action, ref) => confirmAdd(turn, action.draft, ref),
    add_anyway: (turn, action, ref) => addAnyway(turn, action.draft, ref),
  },
  answers: {
    add_line: (turn, _awaiting, text) => addFromLine(turn, text),
    add_amount: (turn, awaiting, text) => typedAmount(turn, awaiting.draft, text),
  },
});
