import { OpError } from '../../errors/index.ts';
import { offers } from '../../kernel/surface.ts';
import { defineFeature } from '../feature.ts';
import { setAwaiting } from '../flows.ts';
import {
  kindOf,
  matchName,
  MERGE_WORDS,
  type Named,
  parseVerb,
  RENAME_WORDS,
  splitPair,
  splitTagAndName,
} from '../organizeArgs.ts';
import type { Turn } from '../turn.ts';
import type { SentRef } from '../types.ts';
import { change } from './changes.ts';
import { proposeChange } from './pendingCard.ts';

/**
 * /categories, /tags and /methods: the household's categories, tags and payment methods, listed
 * with a button each; a record's card has buttons for what can be done with it. Creating and
 * renaming apply at once with Undo; deleting and merging are previewed first through the
 * pending-change service, saying what happens to their subscriptions. Every change is its op,
 * through `core.invoke` on the chat surface; a button shows only while its op is offered.
 */

export type Kind = 'category' | 'tag' | 'method';

interface Item extends Named {
  subscription_count: number;
}

const OPS = {
  category: {
    list: 'list_categories',
    create: 'create_category',
    rename: 'update_category',
    remove: 'delete_category',
  },
  tag: { list: 'list_tags', create: 'create_tag', rename: 'rename_tag', remove: 'delete_tag' },
  method: {
    list: 'list_payment_methods',
    create: 'create_payment_method',
    rename: 'update_payment_method',
    remove: 'delete_payment_method',
  },
} as const;

const ICON: Record<Kind, string> = { category: '🗂', tag: '🏷', method: '💳' };
/** The list shows this many records as buttons; more are named in the lines. */
const MAX_BUTTONS = 24;

/** Whether the speaker may run an op on chat (the catalog has it and offers it to them). */
function can(turn: Turn, name: string): boolean {
  return turn.hasOp(name) && offers(turn.core.op(name), turn.actor, 'chat');
}

async function itemsOf(turn: Turn, kind: Kind): Promise<Item[]> {
  const { output } = await turn.invoke(OPS[kind].list, {});
  return (output as { items: Item[] }).items;
}

function countLine(turn: Turn, count: number): string {
  return turn.t(count === 1 ? 'manage.subs_one' : 'manage.subs', { count });
}

/** The list of one kind, with a button per record and one to add a new one. */
async function showList(turn: Turn, kind: Kind, ref: SentRef | null, lead?: string) {
  const items = await itemsOf(turn, kind);
  const reply = turn.reply();
  const lines = items.map((i) => `• ${i.name} — ${countLine(turn, i.subscription_count)}`);
  reply.setCard({
    title: `${ICON[kind]} ${turn.t(`manage.${kind}.title`, { count: items.length })}`,
    lines: lines.length > 0 ? lines : [turn.t(`manage.${kind}.none`)],
  });
  if (lead) reply.say(lead);
  reply.say(turn.t(`manage.${kind}.hint`));
  const shown = items.slice(0, MAX_BUTTONS);
  for (let i = 0; i < shown.length; i += 2)
    reply.row(
      ...shown
        .slice(i, i + 2)
        .map((item) => reply.action(item.name, { t: 'org_item', w: kind, id: item.id })),
    );
  if (can(turn, OPS[kind].create))
    reply.row(
      reply.action(turn.t(`manage.${kind}.new`), { t: 'org_ask', w: kind, q: 'create', id: null }),
    );
  await turn.update(ref, reply);
}

/** Several records match what was typed: one button each, to pick. */
async function pick(turn: Turn, kind: Kind, typed: string, found: Item[]): Promise<void> {
  const reply = turn.reply().say(turn.t('manage.which', { name: typed }));
  for (const item of found.slice(0, MAX_BUTTONS))
    reply.row(reply.action(item.name, { t: 'org_item', w: kind, id: item.id }));
  await turn.send(reply);
}

/** The one record a typed name means, or null after saying what was found instead. */
async function resolve(turn: Turn, kind: Kind, typed: string): Promise<Item | null> {
  const found = matchName(await itemsOf(turn, kind), typed);
  if (found.length === 1 && found[0]) return found[0];
  if (found.length === 0)
    await showList(turn, kind, null, turn.t(`manage.${kind}.not_found`, { name: typed }));
  else await pick(turn, kind, typed, found);
  return null;
}

async function itemById(turn: Turn, kind: Kind, id: string): Promise<Item> {
  const item = (await itemsOf(turn, kind)).find((i) => i.id === id);
  if (!item) throw new OpError('not_found', `manage.${kind}.gone`);
  return item;
}

/** A record's card: its subscriptions, and buttons for what can be done with it. */
async function showItem(turn: Turn, kind: Kind, item: Item, ref: SentRef | null): Promise<void> {
  const reply = turn.reply();
  const filter =
    kind === 'category'
      ? { category_id: item.id }
      : kind === 'tag'
        ? { tag_id: item.id }
        : { payment_method_id: item.id };
  const { output } = await turn.invoke('list_subscriptions', { ...filter, limit: 10 });
  const subs = (output as { total: number; items: Named[] }).items;
  const lines = [countLine(turn, item.subscription_count), ...subs.map((s) => `• ${s.name}`)];
  reply.setCard({ title: `${ICON[kind]} ${item.name}`, lines });
  const ops = OPS[kind];
  const ask = (q: 'rename' | 'tag' | 'untag') =>
    ({ t: 'org_ask', w: kind, q, id: item.id }) as const;
  reply.row(
    ...(can(turn, ops.rename) ? [reply.action(turn.t('manage.button.rename'), ask('rename'))] : []),
    ...(kind === 'category' && can(turn, 'merge_categories')
      ? [reply.action(turn.t('manage.button.merge'), { t: 'org_merge', id: item.id })]
      : []),
    ...(can(turn, ops.remove)
      ? [reply.action(turn.t('manage.button.delete'), { t: 'org_delete', w: kind, id: item.id })]
      : []),
  );
  if (kind === 'tag' && can(turn, 'update_subscription'))
    reply.row(
      reply.action(turn.t('manage.button.tag'), ask('tag')),
      reply.action(turn.t('manage.button.untag'), ask('untag')),
    );
  reply.row(reply.action(turn.t('manage.button.back'), { t: 'org_list', w: kind }));
  await turn.update(ref, reply);
}

async function create(turn: Turn, kind: Kind, name: string, ref: SentRef | null): Promise<void> {
  const input = kind === 'method' ? { name, kind: kindOf(name) } : { name };
  await change(turn, OPS[kind].create, input, ref);
}

async function rename(turn: Turn, kind: Kind, id: string, name: string): Promise<void> {
  await change(turn, OPS[kind].rename, { id, name }, null);
}

/** Deleting, previewed first: the lead line says what becomes of its subscriptions. */
async function remove(turn: Turn, kind: Kind, id: string, ref: SentRef | null): Promise<void> {
  await proposeChange(turn, OPS[kind].remove, { id }, ref, (output) => {
    const out = output as { subscriptions_moved?: number; subscriptions_untagged?: number };
    const count = out.subscriptions_moved ?? out.subscriptions_untagged ?? 0;
    if (count === 0) return [turn.t('manage.effect.none')];
    return [turn.t(`manage.effect.${kind}${count === 1 ? '_one' : ''}`, { count })];
  });
}

async function merge(turn: Turn, id: string, into: string, ref: SentRef | null): Promise<void> {
  await proposeChange(
    turn,
    'merge_categories',
    { source_ids: [id], target_id: into },
    ref,
    (output) => {
      const out = output as { subscriptions_moved: number; target: { name: string } };
      const count = out.subscriptions_moved;
      return [
        turn.t(count === 1 ? 'manage.effect.merge_one' : 'manage.effect.merge', {
          count,
          target: out.target.name,
        }),
      ];
    },
  );
}

/** "Merge into…": the other categories, one button each. */
async function mergeTargets(turn: Turn, id: string, ref: SentRef | null): Promise<void> {
  const items = await itemsOf(turn, 'category');
  const source = items.find((i) => i.id === id);
  if (!source) throw new OpError('not_found', 'manage.category.gone');
  const others = items.filter((i) => i.id !== id);
  const reply = turn.reply();
  if (others.length === 0) {
    reply.say(turn.t('manage.category.merge_none'));
    await turn.send(reply);
    return;
  }
  reply.say(turn.t('manage.category.merge_into', { name: source.name }));
  for (const item of others.slice(0, MAX_BUTTONS))
    reply.row(reply.action(item.name, { t: 'org_merge_into', id, into: item.id }));
  await turn.update(ref, reply);
}

interface SubView extends Named {
  tags: Named[];
}

/** Tags or untags a subscription (found by name) through update_subscription, with Undo. */
async function tagByName(turn: Turn, tagName: string, subName: string, on: boolean): Promise<void> {
  const { output } = await turn.invoke('list_subscriptions', { text: subName, limit: 20 });
  const found = matchName((output as { items: SubView[] }).items, subName);
  if (found.length === 0) {
    await turn.say(turn.t('manage.tag.no_subscription', { name: subName }));
    return;
  }
  const tags = await itemsOf(turn, 'tag');
  const tag = matchName(tags, tagName)[0];
  const label = tag?.name ?? tagName;
  if (found.length > 1 || !tag) {
    if (found.length === 1 && found[0] && on) {
      await setTag(turn, label, found[0], true, null);
      return;
    }
    if (!tag) {
      await turn.say(turn.t('manage.tag.not_found', { name: tagName }));
      return;
    }
    const reply = turn.reply().say(turn.t('manage.which', { name: subName }));
    for (const sub of found.slice(0, MAX_BUTTONS))
      reply.row(reply.action(sub.name, { t: 'org_tag', tag: tag.id, sub: sub.id, on }));
    await turn.send(reply);
    return;
  }
  const [sub] = found;
  if (sub) await setTag(turn, label, sub, on, null);
}

async function setTag(
  turn: Turn,
  tagName: string,
  sub: SubView,
  on: boolean,
  ref: SentRef | null,
): Promise<void> {
  const current = sub.tags.map((t) => t.name);
  const has = current.some((n) => n.toLowerCase() === tagName.toLowerCase());
  if (has === on) {
    await turn.say(
      turn.t(on ? 'manage.tag.already' : 'manage.tag.not_on', { tag: tagName, name: sub.name }),
    );
    return;
  }
  const tags = on
    ? [...current, tagName]
    : current.filter((n) => n.toLowerCase() !== tagName.toLowerCase());
  await change(turn, 'update_subscription', { id: sub.id, tags }, ref);
}

async function pressTag(
  turn: Turn,
  tagId: string,
  subId: string,
  on: boolean,
  ref: SentRef | null,
) {
  const tag = await itemById(turn, 'tag', tagId);
  const { output } = await turn.invoke('get_subscription', { id: subId });
  await setTag(turn, tag.name, output as SubView, on, ref);
}

/** Asks for the text a button needs (a name), remembered for this conversation. */
async function ask(
  turn: Turn,
  kind: Kind,
  q: 'create' | 'rename' | 'tag' | 'untag',
  id: string | null,
): Promise<void> {
  const name = id ? (await itemById(turn, kind, id)).name : '';
  await setAwaiting(
    turn.db,
    turn.conversationKey,
    turn.owner,
    { t: 'org_answer', w: kind, q, id },
    turn.now,
  );
  await turn.say(turn.t(`manage.ask.${q === 'create' ? `create_${kind}` : q}`, { name }));
}

async function answer(
  turn: Turn,
  kind: Kind,
  q: 'create' | 'rename' | 'tag' | 'untag',
  id: string | null,
  text: string,
): Promise<void> {
  if (q === 'create') return create(turn, kind, text, null);
  if (!id) throw new OpError('internal');
  if (q === 'rename') return rename(turn, kind, id, text);
  const tag = await itemById(turn, 'tag', id);
  return tagByName(turn, tag.name, text, q === 'tag');
}

/** A command: a verb and names, a name (its card), or nothing (the list). */
async function command(turn: Turn, kind: Kind, args: string): Promise<void> {
  const { verb, rest } = parseVerb(args);
  if (verb === null) {
    if (rest === '') return showList(turn, kind, null);
    const item = await resolve(turn, kind, rest);
    if (item) await showItem(turn, kind, item, null);
    return;
  }
  const usage = async (): Promise<void> => {
    await turn.say(turn.t(`manage.${kind}.usage`));
  };
  switch (verb) {
    case 'create':
      if (rest === '') return ask(turn, kind, 'create', null);
      return create(turn, kind, rest, null);
    case 'rename': {
      const pair = splitPair(rest, RENAME_WORDS);
      if (!pair) return usage();
      const item = await resolve(turn, kind, pair[0]);
      if (item) await rename(turn, kind, item.id, pair[1]);
      return;
    }
    case 'delete': {
      if (rest === '') return usage();
      const item = await resolve(turn, kind, rest);
      if (item) await remove(turn, kind, item.id, null);
      return;
    }
    case 'merge': {
      if (kind !== 'category') return usage();
      const pair = splitPair(rest, MERGE_WORDS);
      if (!pair) {
        const item = rest === '' ? null : await resolve(turn, kind, rest);
        if (item) await mergeTargets(turn, item.id, null);
        else if (rest === '') await usage();
        return;
      }
      const source = await resolve(turn, kind, pair[0]);
      const target = source ? await resolve(turn, kind, pair[1]) : null;
      if (source && target) await merge(turn, source.id, target.id, null);
      return;
    }
    case 'tag':
    case 'untag': {
      if (kind !== 'tag') return usage();
      const split = splitTagAndName(rest, await itemsOf(turn, 'tag'));
      if (!split) return usage();
      return tagByName(turn, split.tag, split.name, verb === 'tag');
    }
    default: {
      const unreachable: never = verb;
      return unreachable;
    }
  }
}

const spec = (name: string, kind: Kind) => ({
  command: name,
  op: OPS[kind].list,
  place: 'any' as const,
  newcomer: false,
  run: (turn: Turn, args: string) => command(turn, kind, args),
});

export const organizeFeature = defineFeature({
  name: 'organize',
  commands: [spec('categories', 'category'), spec('tags', 'tag'), spec('methods', 'method')],
  reaches: [
    ...Object.values(OPS).flatMap((o) => [o.create, o.rename, o.remove]),
    'merge_categories',
    'update_subscription',
  ],
  actions: {
    org_list: (turn, action, ref) => showList(turn, action.w, ref),
    org_item: async (turn, action, ref) =>
      showItem(turn, action.w, await itemById(turn, action.w, action.id), ref),
    org_ask: (turn, action) => ask(turn, action.w, action.q, action.id),
    org_delete: (turn, action, ref) => remove(turn, action.w, action.id, ref),
    org_merge: (turn, action, ref) => mergeTargets(turn, action.id, ref),
    org_merge_into: (turn, action, ref) => merge(turn, action.id, action.into, ref),
    org_tag: (turn, action, ref) => pressTag(turn, action.tag, action.sub, action.on, ref),
  },
  answers: {
    org_answer: (turn, awaiting, text) => answer(turn, awaiting.w, awaiting.q, awaiting.id, text),
  },
});
