import { resultLines } from '../cards.ts';
import type { SentRef } from '../types.ts';
import type { Turn } from '../turn.ts';
import { change } from './changes.ts';
import { defineFeature } from '../feature.ts';

const TIMES = ['08:00', '09:00', '13:00', '19:00'];
const OFFSETS: number[][] = [[3, 1], [1], [7, 1], [0], []];

interface MemberOut {
  id: string;
  name: string;
  role: string;
  language: string;
  reminder_offsets: number[];
  reminder_time: string;
}

function sameOffsets(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

async function myself(turn: Turn): Promise<MemberOut | undefined> {
  const members = await turn.invoke('list_members', {});
  return (members.output as { members: MemberOut[] }).members.find(
    (m) => m.id === turn.actor.memberId,
  );
}

/**
 * `/settings`: the household and the speaker's own settings, changed with buttons through
 * `update_member`. With `ref`, the message is redrawn in place (its ticks follow each change).
 */
export async function showSettings(
  turn: Turn,
  _args?: string,
  ref: SentRef | null = null,
): Promise<void> {
  const [hh, me] = await Promise.all([turn.invoke('get_household', {}), myself(turn)]);
  const household = hh.output as { name: string };
  const reply = turn.reply();
  const lines = [household.name, ...resultLines(hh.output, turn.locale)];
  if (me) lines.push('', `👤 ${me.name}`, ...resultLines(me, turn.locale));
  reply.setCard({ title: `⚙️ ${turn.t('chat.settings.title')}`, lines });
  reply.say(turn.t('chat.settings.hint'));
  const current = me?.reminder_offsets ?? [];
  reply.row(
    reply.action(`${me?.language === 'en' ? '✓ ' : ''}English`, {
      t: 'set_language',
      language: 'en',
    }),
    reply.action(`${me?.language === 'es' ? '✓ ' : ''}Español`, {
      t: 'set_language',
      language: 'es',
    }),
  );
  reply.row(
    ...OFFSETS.map((o) =>
      reply.action(
        `${sameOffsets(o, current) ? '✓ ' : ''}${o.length === 0 ? turn.t('chat.settings.off') : turn.t('chat.settings.days_before', { days: o.join('+') })}`,
        {
          t: 'set_offsets',
          offsets: o,
        },
      ),
    ),
  );
  reply.row(
    ...TIMES.map((time) =>
      reply.action(`${me?.reminder_time === time ? '✓ ' : ''}${time}`, { t: 'set_time', time }),
    ),
  );
  await turn.update(ref, reply);
}

/**
 * A settings button: changes the speaker's member record and shows the change with Undo, then
 * redraws the settings message with the new ticks. The option already chosen changes nothing.
 */
export async function pressSetting(
  turn: Turn,
  patch: { language?: 'en' | 'es'; reminder_time?: string; reminder_offsets?: number[] },
  ref: SentRef | null,
): Promise<void> {
  const me = await myself(turn);
  const unchanged =
    me !== undefined &&
    (patch.language === undefined || patch.language === me.language) &&
    (patch.reminder_time === undefined || patch.reminder_time === me.reminder_time) &&
    (patch.reminder_offsets === undefined ||
      sameOffsets(patch.reminder_offsets, me.reminder_offsets));
  if (unchanged) {
    await turn.notice(turn.t('chat.settings.unchanged'));
    return;
  }
  // A new language applies at once: the confirmation is already written in it.
  if (patch.language)
    turn.speaker = {
      ...turn.speaker,
      locale: patch.language,
      actor: { ...turn.actor, locale: patch.language },
    };
  await change(turn, 'update_member', { id: turn.actor.memberId, ...patch }, null);
  if (ref) await showSettings(turn, '', ref);
}

/** /settings: the speaker's language and reminders, changed with buttons. */
export const settingsFeature = defineFeature({
  name: 'settings',
  commands: [
    {
      command: 'settings',
      op: 'update_member',
      place: 'private',
      newcomer: false,
      run: showSettings,
    },
  ],
  actions: {
    set_language: (turn, action, ref) => pressSetting(turn, { language: action.language }, ref),
    set_time: (turn, action, ref) => pressSetting(turn, { reminder_time: action.time }, ref),
    set_offsets: (turn, action, ref) =>
      pressSetting(turn, { reminder_offsets: action.offsets }, ref),
  },
});
