import type { InvokeResult } from '../../kernel/core.ts';
import { listActivity } from '../../ops/activity/listActivity.ts';
import type { SentRef } from '../types.ts';
import type { Turn } from '../turn.ts';
import { defineFeature } from '../feature.ts';

export const ACTIVITY_PAGE = 5;

/** A timestamp in the household's time zone, "2 Mar 10:15". */
async function timeFormatter(turn: Turn): Promise<(iso: string) => string> {
  const timeZone = await turn.timeZone();
  const fmt = new Intl.DateTimeFormat(turn.locale === 'es' ? 'es-ES' : 'en-GB', {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  });
  return (iso) => fmt.format(new Date(iso));
}

/**
 * `/activity`: recent changes with who made them and how, each undoable one with its own button,
 * labelled by what pressing it does (the entry's `undo_effect`): Undo takes a change back, Redo
 * brings back what an undo took back.
 */
export async function showActivity(
  turn: Turn,
  before: string | null,
  ref: SentRef | null,
): Promise<void> {
  const [result, when] = await turn.withTyping(() =>
    Promise.all([
      turn.invoke(listActivity.name, { limit: ACTIVITY_PAGE, ...(before ? { before } : {}) }),
      timeFormatter(turn),
    ]),
  );
  const out = listActivity.output.parse(result.output);
  const reply = turn.reply();
  if (out.items.length === 0) {
    await turn.update(ref, reply.say(turn.t('chat.activity.empty')));
    return;
  }
  const lines = out.items.map((item, i) => {
    const who = item.agent_name
      ? turn.t('chat.activity.by_agent', {
          agent: item.agent_name,
          member: item.member_name ?? '?',
        })
      : (item.member_name ??
        turn.t(`chat.actor.${item.actor_kind === 'system' ? 'system' : 'member'}`));
    const state = item.undone ? ` ${turn.t('chat.activity.undone_mark')}` : '';
    return `${i + 1}. ${item.summary}${state}\n    ${who} · ${turn.t(`chat.channel.${item.channel}`)} · ${when(item.created_at)}`;
  });
  reply.setCard({ title: `🕘 ${turn.t('chat.activity.title')}`, lines });
  const undoable = out.items
    .map((item, i) => ({ item, n: i + 1 }))
    .filter(({ item }) => item.can_undo);
  for (let i = 0; i < undoable.length; i += 3) {
    reply.row(
      ...undoable.slice(i, i + 3).map(({ item, n }) =>
        reply.action(`${undoLabel(turn, item.undo_effect)} ${n}`, {
          t: 'undo',
          audit: item.id,
          page: before,
        }),
      ),
    );
  }
  // Paging: back to the newest changes from an older page, and on to older ones.
  const last = out.items[out.items.length - 1];
  const paging = [
    ...(before
      ? [reply.action(`⏮️ ${turn.t('chat.button.newest')}`, { t: 'activity_page', before: null })]
      : []),
    ...(out.has_more && last
      ? [reply.action(`${turn.t('chat.button.older')} ▶️`, { t: 'activity_page', before: last.id })]
      : []),
  ];
  if (paging.length > 0) reply.row(...paging);
  await turn.update(ref, reply);
}

/** The button that undoes an entry, named by what it does: "↩️ Undo", or "🔁 Redo" for an undo. */
function undoLabel(turn: Turn, effect: 'undone' | 'redone'): string {
  return effect === 'redone' ? `🔁 ${turn.t('chat.button.redo')}` : turn.t('chat.button.undo');
}

/** Shows what an undo did, with a Redo button (undoing the undo re-applies the change). */
export async function showUndone(turn: Turn, result: InvokeResult): Promise<void> {
  const out = result.output as {
    undone: Array<{ effect: 'undone' | 'redone'; changes: string[] }>;
  };
  // Pressing Redo undoes an undo: the card says the change is back, and offers Undo again.
  const redone = out.undone.length > 0 && out.undone.every((u) => u.effect === 'redone');
  const reply = turn.reply();
  reply.setCard({
    title: redone ? `🔁 ${turn.t('chat.redo.title')}` : `↩️ ${turn.t('chat.undo.title')}`,
    lines: out.undone.flatMap((u) => u.changes),
  });
  if (result.auditId)
    reply.row(
      reply.action(undoLabel(turn, redone ? 'undone' : 'redone'), {
        t: 'undo',
        audit: result.auditId,
      }),
    );
  await turn.send(reply);
}

/** `/undo`: undoes the speaker's most recent change. */
export async function undoLatest(turn: Turn): Promise<void> {
  await showUndone(turn, await turn.invoke('undo', {}));
}

/** An Undo (or Redo) button: undoes that audit entry, then takes the buttons off the card it was on. */
export async function pressUndo(
  turn: Turn,
  auditId: string,
  page: string | null | undefined,
  ref: SentRef | null,
): Promise<void> {
  const result = await turn.invoke('undo', { ids: [auditId] });
  if (page !== undefined && ref) {
    await showActivity(turn, page, ref);
    await showUndone(turn, result);
    return;
  }
  if (ref && turn.channel.clearButtons) await turn.channel.clearButtons(ref);
  await showUndone(turn, result);
}

/** The activity log (private: it names everyone's changes) and Undo. */
export const activityFeature = defineFeature({
  name: 'activity',
  commands: [
    {
      command: 'activity',
      op: 'list_activity',
      place: 'private',
      newcomer: false,
      run: (turn) => showActivity(turn, null, null),
    },
    { command: 'undo', op: 'undo', place: 'private', newcomer: false, run: undoLatest },
  ],
  actions: {
    undo: (turn, action, ref) => pressUndo(turn, action.audit, action.page, ref),
    activity_page: (turn, action, ref) => showActivity(turn, action.before, ref),
  },
});
