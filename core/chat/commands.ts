import type { Core } from '../kernel/core.ts';
import { surfaceOps } from '../kernel/surface.ts';
import { type Locale, t } from '../i18n/index.ts';
import type { Turn } from './turn.ts';

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
export function describeCommand(core: Core, spec: CommandSpec, locale: Locale): string {
  const key = `chat.cmd.${spec.command}`;
  const text = t(locale, key);
  if (text !== key) return text.slice(0, 256);
  const op = spec.op ? core.catalog.find((o) => o.name === spec.op) : undefined;
  return (op?.title ?? spec.command).slice(0, 256);
}

/** The command menu for a kind of chat, as Telegram's setMyCommands and /help want it. */
export function commandMenu(
  core: Core,
  commands: readonly CommandSpec[],
  locale: Locale,
  place: 'private' | 'group',
): Array<{ command: string; description: string }> {
  return commands
    .filter((c) => c.place === 'any' || c.place === place)
    .map((c) => ({ command: c.command, description: describeCommand(core, c, locale) }));
}
