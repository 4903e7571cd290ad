import { defineFeature } from '../feature.ts';
import type { ReplyBuilder } from '../reply.ts';
import type { Turn } from '../turn.ts';

/** Adds the "Open Exhale" Mini App button, in private chats, when a Mini App URL is configured. */
export function addMiniAppButton(turn: Turn, reply: ReplyBuilder): void {
  const url = turn.engine.miniAppUrl;
  if (url && !turn.inGroup && !turn.speaker.newcomer)
    reply.row(reply.webapp(turn.t('chat.button.open_app'), url));
}

/** The command list (every registered feature's commands), written for the kind of chat it is shown in. */
export function helpReply(turn: Turn, intro?: string): ReplyBuilder {
  const reply = turn.reply();
  if (intro) reply.say(intro);
  if (turn.speaker.newcomer) {
    reply.say(turn.t('chat.help.newcomer'));
    return reply;
  }
  if (!intro) reply.say(turn.t('chat.help.title'));
  const place = turn.inGroup ? 'group' : 'private';
  for (const item of turn.engine.commandMenu(turn.locale, place, turn.channel.name)) {
    reply.say(`/${item.command} — ${item.description}`);
  }
  reply.say('');
  reply.say(turn.t('chat.help.add_example'));
  addMiniAppButton(turn, reply);
  return reply;
}

export async function showHelp(turn: Turn): Promise<void> {
  await turn.send(helpReply(turn));
}

/** /help, and the buttons any feature may show: run a command, or cancel what was being prepared. */
export const helpFeature = defineFeature({
  name: 'help',
  commands: [
    { command: 'help', op: null, place: 'any', newcomer: true, beforeLink: true, run: showHelp },
  ],
  actions: {
    command: (turn, action) => turn.engine.runCommand(turn, action.command, ''),
    cancel: (turn, _action, ref) => turn.update(ref, turn.reply().say(turn.t('chat.cancelled'))),
  },
});
