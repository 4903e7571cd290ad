import type { Channel as ChannelName } from '../kernel/actor.ts';
import type { Core } from '../kernel/core.ts';
import { surfaceOps } from '../kernel/surface.ts';
import { type Locale, t } from '../i18n/index.ts';
import { groupWords, type MenuOptions } from './channelWords.ts';
import type { Turn } from './turn.ts';
import type { ChannelWords } from './types.ts';

/** Where a command may be used. Secrets (tokens, invite links) and the activity log stay private. */
export type CommandPlace = 'any' | 'private' | 'group';

/** A chat command, declared by the feature it belongs to (see `ChatFeature`). */
export interface CommandSpec {
  command: string;
  /** The op it calls: the command exists only while the catalog has it and offers it on chat. */
  op: string | null;
  place: CommandPlace;
  /** Works before the person has a household. */
  newcomer: boolean;
  /** Works in a group that is not linked to a household yet (/start, /help, /link). */
  beforeLink?: boolean;
  /**
   * Channels where it means nothing, so their command lists leave it out: on the web app /start
   * (Telegram's first contact), /web (a sign-in link to where the reader already is) and
   * /assistant (Settings has it). Absent: every channel.
   */
  notOn?: readonly ChannelName[];
  run(turn: Turn, args: string): Promise<void>;
}

/**
 * The commands of `declared` this catalog supports: an op missing from the catalog, or not offered
 * on chat, hides its command. Commands are thin: each reads its arguments and calls its op through
 * `core.invoke`.
 */
export function offeredCommands(core: Core, declared: readonly CommandSpec[]): CommandSpec[] {
  const offered = new Set(surfaceOps(core.catalog, 'chat').map((op) => op.name));
  return declared.filter((c) => c.op === null || offered.has(c.op));
}

/**
 * A command's one-line description in a language (Telegram's limit is 256 characters): its
 * `chat.cmd.<command>` text, falling back to its op's title, then to its name.
 */
export function describeCommand(
  core: Core,
  spec: CommandSpec,
  locale: Locale,
  words?: ChannelWords,
): string {
  const key = `chat.cmd.${spec.command}`;
  const text = t(locale, key, groupWords(locale, words));
  if (text !== key) return text.slice(0, 256);
  const op = spec.op ? core.catalog.find((o) => o.name === spec.op) : undefined;
  return (op?.title ?? spec.command).slice(0, 256);
}

/** Whether a command is offered on a channel (every channel when none is named). */
export function worksOn(spec: CommandSpec, channel: ChannelName | undefined): boolean {
  return channel === undefined || !(spec.notOn ?? []).includes(channel);
}

/**
 * The command menu for a kind of chat on a channel, as Telegram's setMyCommands and /help want it:
 * only the commands that work there (the one rule every channel's list follows).
 */
export function commandMenu(
  core: Core,
  commands: readonly CommandSpec[],
  locale: Locale,
  place: 'private' | 'group',
  channel?: ChannelName,
  options: MenuOptions = {},
): Array<{ command: string; description: string }> {
  return commands
    .filter((c) => (c.place === 'any' || c.place === place) && worksOn(c, channel))
    .filter((c) => options.newcomer !== true || c.newcomer)
    .map((c) => ({
      command: c.command,
      description: describeCommand(core, c, locale, options.words),
    }));
}
