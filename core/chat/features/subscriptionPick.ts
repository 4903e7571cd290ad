import { searchKey } from '../../domain/text.ts';
import { listSubscriptions } from '../../ops/subscriptions/listSubscriptions.ts';
import type { SubCommand } from '../subscriptionActions.ts';
import type { Turn } from '../turn.ts';

/**
 * Which subscription a command means. A name is matched ignoring case and accents: one
 * subscription called exactly that, or the only one whose name, vendor or notes contain it, is
 * the one; otherwise (several, none, or no name at all) a pick list is sent, whose buttons run
 * the command on the chosen one with the rest of the typed line.
 */

/** The statuses a command makes sense for, when it lists subscriptions to choose from. */
const STATUSES: Partial<Record<SubCommand, Array<'active' | 'trial' | 'paused' | 'cancelled'>>> = {
  pause: ['active', 'trial'],
  resume: ['paused', 'cancelled'],
  cancel: ['active', 'trial', 'paused'],
  paid: ['active', 'trial'],
  skip: ['active', 'trial'],
};

/** At most this many choices; past them the list says to type part of the name. */
const PICK_LIMIT = 10;

async function find(
  turn: Turn,
  text: string | null,
  status: SubCommand,
): Promise<{ total: number; items: Array<{ id: string; name: string }> }> {
  const statuses = text ? undefined : STATUSES[status];
  const { output } = await turn.invoke(listSubscriptions.name, {
    limit: PICK_LIMIT,
    sort: 'name',
    ...(text ? { text } : {}),
    ...(statuses ? { status: statuses } : {}),
  });
  const parsed = listSubscriptions.output.parse(output);
  return { total: parsed.total, items: parsed.items };
}

/** The subscription `name` means for `/cmd`, or null after sending the pick list. */
export async function pickSubscription(
  turn: Turn,
  cmd: SubCommand,
  name: string,
  rest = '',
): Promise<string | null> {
  const query = name.trim().slice(0, 100);
  if (query.length > 0) {
    const found = await find(turn, query, cmd);
    const exact = found.items.filter((s) => searchKey(s.name) === searchKey(query));
    const only = exact.length === 1 ? exact[0] : found.total === 1 ? found.items[0] : undefined;
    if (only) return only.id;
    if (found.total > 0) {
      await sendPicks(turn, cmd, found, rest, turn.t('chat.sub.pick.ambiguous', { text: query }));
      return null;
    }
  }
  const all = await find(turn, null, cmd);
  if (all.total === 0) {
    await turn.say(
      query
        ? turn.t('chat.sub.pick.none_matching', { text: query })
        : turn.t(`chat.sub.pick.none.${cmd}`),
    );
    return null;
  }
  const lead = query
    ? turn.t('chat.sub.pick.not_found', { text: query })
    : turn.t(`chat.sub.pick.which.${cmd}`);
  await sendPicks(turn, cmd, all, rest, lead);
  return null;
}

async function sendPicks(
  turn: Turn,
  cmd: SubCommand,
  found: { total: number; items: Array<{ id: string; name: string }> },
  rest: string,
  lead: string,
): Promise<void> {
  const reply = turn.reply().say(lead);
  if (found.total > found.items.length)
    reply.say(turn.t('chat.sub.pick.more', { n: found.total - found.items.length, command: cmd }));
  const items = found.items;
  for (let i = 0; i < items.length; i += 2)
    reply.row(
      ...items.slice(i, i + 2).map((s) =>
        reply.action(s.name.slice(0, 40), {
          t: 'sub_pick',
          cmd,
          s: s.id,
          ...(rest ? { rest: rest.slice(0, 200) } : {}),
        }),
      ),
    );
  await turn.send(reply);
}
