import { resultLines } from '../cards.ts';
import type { Turn } from '../turn.ts';
import { change } from './changes.ts';

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

/** `/settings`: the household and the speaker's own settings, changed with buttons through `update_member`. */
export async function showSettings(turn: Turn): Promise<void> {
  const [hh, members] = await Promise.all([
    turn.invoke('get_household', {}),
    turn.invoke('list_members', {}),
  ]);
  const me = (members.output as { members: MemberOut[] }).members.find(
    (m) => m.id === turn.actor.memberId,
  );
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
  await turn.send(reply);
}

/** A settings button: changes the speaker's member record and shows the change with Undo. */
export async function pressSetting(
  turn: Turn,
  patch: { language?: 'en' | 'es'; reminder_time?: string; reminder_offsets?: number[] },
): Promise<void> {
  // A new language applies at once: the confirmation is already written in it.
  if (patch.language)
    turn.speaker = {
      ...turn.speaker,
      locale: patch.language,
      actor: { ...turn.actor, locale: patch.language },
    };
  await change(turn, 'update_member', { id: turn.actor.memberId, ...patch }, null);
}
