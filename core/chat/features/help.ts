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
    if (turn.inGroup) reply.say(turn.t('chat.help.newcomer'));
    else newcomerHelp(turn, reply);
    return reply;
  }
  if (!intro) reply.say(turn.t('chat.help.title'));
  const place = turn.inGroup ? 'group' : 'private';
  const menu = turn.engine.commandMenu(turn.locale, place, turn.channel.name, {
    words: turn.channel.words,
  });
  for (const item of menu) {
    reply.say(`/${item.command} — ${item.description}`);
  }
  reply.say('');
  reply.say(turn.t('chat.help.add_example'));
  addMiniAppButton(turn, reply);
  return reply;
}

/**
 * Help for a person without a household, in the private chat where they can start: what Exhale
 * is, how to start here (the channel's own command: `/start`, `/exhale start` on Slack), and the
 * commands they may use already.
 */
function newcomerHelp(turn: Turn, reply: ReplyBuilder): void {
  const start = turn.command('start');
  reply.say(turn.t('chat.polish.newcomer.intro'));
  reply.say('');
  reply.say(
    turn.t('chat.polish.newcomer.start', {
      start,
      join: `${start} <${turn.t('chat.polish.newcomer.code')}>`,
    }),
  );
  reply.say('');
  reply.say(turn.t('chat.polish.newcomer.commands'));
  const menu = turn.engine.commandMenu(turn.locale, 'private', turn.channel.name, {
    words: turn.channel.words,
    newcomer: true,
  });
  for (const item of menu) reply.say(`${turn.command(item.command)} — ${item.description}`);
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
