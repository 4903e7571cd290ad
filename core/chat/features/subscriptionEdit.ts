import { isOpError } from '../../errors/index.ts';
import { listCategories } from '../../ops/organize/listCategories.ts';
import { listPaymentMethods } from '../../ops/organize/listPaymentMethods.ts';
import { listTags } from '../../ops/organize/listTags.ts';
import { amountProblem, unsureAmount } from '../amountCheck.ts';
import { readEdit, splitEdit } from '../editValue.ts';
import { defineFeature } from '../feature.ts';
import { setAwaiting } from '../flows.ts';
import type { EditField } from '../subscriptionActions.ts';
import {
  canSetPrivacy,
  householdToday,
  loadSubscription,
  memberNames,
  privacyRefusal,
} from '../subscriptionView.ts';
import type { SentRef } from '../types.ts';
import type { Turn } from '../turn.ts';
import { pickSubscription } from './subscriptionPick.ts';
import { runSubscriptionOp } from './subscriptionCard.ts';

/**
 * Edit by conversation: Edit asks which field (buttons), then its value, read with /add's parsers
 * (`editValue.ts`); `/edit Netflix price 17.99 from March` does it in one line. The change runs
 * `update_subscription` through the card's pending-change path: a price, cycle or date change
 * (it moves money) is previewed first. A value that does not read, or that the op refuses, is
 * told in the member's language and asked again.
 */

const FIELD_ROWS: ReadonlyArray<readonly EditField[]> = [
  ['name', 'price', 'cycle'],
  ['date', 'trial', 'notes'],
  ['category', 'method'],
  ['tags', 'shares', 'private'],
];

/** Which field? One button each. */
export async function askField(turn: Turn, id: string, ref: SentRef | null): Promise<void> {
  const sub = await loadSubscription(turn, id);
  const reply = turn.reply();
  reply.setCard({
    title: `✏️ ${turn.t('chat.sub.edit.title', { name: sub.name })}`,
    lines: [turn.t('chat.sub.edit.which')],
  });
  for (const row of FIELD_ROWS)
    reply.row(
      ...row
        .filter((field) => field !== 'private' || canSetPrivacy(turn, sub))
        .map((field) =>
          reply.action(turn.t(`chat.sub.field.${field}`), { t: 'sub_field', s: id, field }),
        ),
    );
  await turn.update(ref, reply);
}

/** The field's question, waiting for the typed value; categories and methods also as buttons. */
export async function askValue(turn: Turn, id: string, field: EditField): Promise<void> {
  const sub = await loadSubscription(turn, id);
  // Only where it can be set: by its member (a private one is its member's), not in a group.
  const refusal = field === 'private' ? privacyRefusal(turn, sub, !sub.private) : null;
  if (refusal !== null) {
    await turn.say(`⚠️ ${refusal}`);
    return;
  }
  await setAwaiting(
    turn.db,
    turn.conversationKey,
    turn.owner,
    { t: 'sub_value', s: id, field },
    turn.now,
  );
  const reply = turn.reply().say(turn.t(`chat.sub.ask.${field}`, { name: sub.name }));
  if (field === 'category' || field === 'method') {
    const listOp = field === 'category' ? listCategories : listPaymentMethods;
    const items = listOp.output.parse((await turn.invoke(listOp.name, {})).output).items;
    const column = field === 'category' ? 'category_id' : 'payment_method_id';
    const current = field === 'category' ? sub.category?.id : sub.payment_method?.id;
    const choices = items.slice(0, 8);
    for (let i = 0; i < choices.length; i += 2)
      reply.row(
        ...choices.slice(i, i + 2).map((item) =>
          reply.action(`${item.id === current ? '✓ ' : ''}${item.name}`, {
            t: 'sub_run',
            op: 'update_subscription',
            args: { id, [column]: item.id },
          }),
        ),
      );
    if (current)
      reply.row(
        reply.action(`✖️ ${turn.t(`chat.sub.clear.${field}`)}`, {
          t: 'sub_run',
          op: 'update_subscription',
          args: { id, [column]: null },
        }),
      );
  }
  if (field === 'private') {
    const choose = (value: boolean, label: string) =>
      reply.action(`${sub.private === value ? '✓ ' : ''}${label}`, {
        t: 'sub_run',
        op: 'update_subscription',
        args: { id, private: value },
      });
    reply.row(
      choose(true, `🔒 ${turn.t('chat.sub.private.yes')}`),
      choose(false, `👥 ${turn.t('chat.sub.private.no')}`),
    );
  }
  if (field === 'tags') {
    const tags = listTags.output.parse((await turn.invoke(listTags.name, {})).output).items;
    if (tags.length > 0)
      reply.say(
        turn.t('chat.sub.ask.tags_known', {
          tags: tags
            .slice(0, 15)
            .map((g) => g.name)
            .join(', '),
        }),
      );
  }
  await turn.send(reply);
}

/**
 * Applies a typed value: read with the field's parser, then run through the pending-change path.
 * When the parser or the op refuses it, says why in the member's language and asks again.
 */
export async function applyValue(
  turn: Turn,
  id: string,
  field: EditField,
  text: string,
): Promise<void> {
  const sub = await loadSubscription(turn, id);
  const { today } = await householdToday(turn);
  const members = field === 'shares' ? await memberNames(turn) : new Map<string, string>();
  const read = readEdit(sub, field, text, { today, members });
  const askAgain = () =>
    setAwaiting(
      turn.db,
      turn.conversationKey,
      turn.owner,
      { t: 'sub_value', s: id, field },
      turn.now,
    );
  if (!read.ok) {
    await askAgain();
    await turn.say(
      `⚠️ ${turn.t(read.key, read.params)}\n${turn.t(`chat.sub.ask.${field}`, { name: sub.name })}`,
    );
    return;
  }
  const refusal = privacyRefusal(turn, sub, read.args.private);
  if (refusal !== null) {
    await turn.say(`⚠️ ${refusal}`);
    return;
  }
  // A price chat cannot store ("-5") is said as /add says it, not in the op's words.
  const { amount, currency } = read.args;
  const problem =
    field === 'price' && typeof amount === 'string'
      ? amountProblem(
          turn.locale,
          text.trim().split(/\s+/)[0] ?? amount,
          amount,
          typeof currency === 'string' ? currency : sub.currency,
        )
      : null;
  if (problem !== null) {
    await askAgain();
    await turn.say(`⚠️ ${problem}\n${turn.t(`chat.sub.ask.${field}`, { name: sub.name })}`);
    return;
  }
  // A price that reads two ways ("1.200") is previewed with how it was read, as /add says it.
  const unsure =
    field === 'price' && typeof amount === 'string' && read.unsure
      ? turn.t(
          'chat.sub.price_unsure',
          unsureAmount(amount, typeof currency === 'string' ? currency : sub.currency, turn.locale),
        )
      : null;
  try {
    await runSubscriptionOp(turn, 'update_subscription', read.args, null, (reply) => {
      if (unsure !== null) reply.say(unsure);
    });
  } catch (error) {
    if (isOpError(error) && error.code === 'invalid_input') {
      await askAgain();
      await turn.say(
        `⚠️ ${error.render(turn.locale)}\n${turn.t(`chat.sub.ask.${field}`, { name: sub.name })}`,
      );
      return;
    }
    throw error;
  }
}

/** What follows the name in `/edit Netflix price 17.99`: a field and maybe its value. */
export async function editWith(
  turn: Turn,
  id: string,
  rest: string,
  ref: SentRef | null,
): Promise<void> {
  const { field, value } = splitEdit(`_ ${rest}`);
  if (field === null) await askField(turn, id, ref);
  else if (value.trim().length === 0) await askValue(turn, id, field);
  else await applyValue(turn, id, field, value);
}

/** `/edit [name] [field] [value]`. */
async function editCommand(turn: Turn, args: string): Promise<void> {
  const { name, field, value } = splitEdit(args);
  const rest = field === null ? '' : `${field} ${value}`.trim();
  const id = await pickSubscription(turn, 'edit', name, rest);
  if (id) await editWith(turn, id, rest, null);
}

/** /edit and the card's Edit, Category, Tags, Payment method and Shares buttons. */
export const subscriptionEditFeature = defineFeature({
  name: 'subscriptionEdit',
  commands: [
    {
      command: 'edit',
      op: 'update_subscription',
      place: 'any',
      newcomer: false,
      run: editCommand,
    },
  ],
  actions: {
    sub_edit: (turn, action) => askField(turn, action.s, null),
    sub_field: (turn, action) => askValue(turn, action.s, action.field),
  },
  answers: {
    sub_value: (turn, awaiting, text) => applyValue(turn, awaiting.s, awaiting.field, text),
  },
});
