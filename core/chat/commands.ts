import type { Core } from '../kernel/core.ts';
import { surfaceOps } from '../kernel/surface.ts';
import { type Locale, t } from '../i18n/index.ts';
import { showActivity, undoLatest } from './features/activity.ts';
import { startAdd } from './features/add.ts';
import { showHelp } from './features/help.ts';
import { linkGroup } from './features/groups.ts';
import { showList, showTotals, showUpcoming } from './features/lists.ts';
import { start } from './features/onboarding.ts';
import { showSettings } from './features/settings.ts';
import { createInviteLink, startToken } from './features/access.ts';
import type { Turn } from './turn.ts';

/** Where a command may be used. Secrets (tokens, invite links) and the activity log stay private. */
export type CommandPlace = 'any' | 'private' | 'group';

export interface CommandSpec {
  command: string;
  /** The op it calls: the command exists only while the catalog has it and offers it on chat. */
  op: string | null;
  place: CommandPlace;
  /** Works before the person has a household. */
  newcomer: boolean;
  run(turn: Turn, args: string): Promise<void>;
}

/**
 * Every chat command. Commands are thin: each reads its arguments and calls its op through
 * `core.invoke`; the descriptions shown by /help and registered with Telegram come from the
 * locale files, falling back to the op's own title.
 */
export const COMMANDS: readonly CommandSpec[] = [
  { command: 'start', op: null, place: 'any', newcomer: true, run: start },
  { command: 'add', op: 'create_subscription', place: 'any', newcomer: false, run: startAdd },
  {
    command: 'list',
    op: 'list_subscriptions',
    place: 'any',
    newcomer: false,
    run: (turn, args) => showList(turn, args, null),
  },
  { command: 'upcoming', op: 'get_upcoming', place: 'any', newcomer: false, run: showUpcoming },
  {
    command: 'totals',
    op: 'get_totals',
    place: 'any',
    newcomer: false,
    run: (turn) => showTotals(turn, 'none', null),
  },
  {
    command: 'activity',
    op: 'list_activity',
    place: 'private',
    newcomer: false,
    run: (turn) => showActivity(turn, null, null),
  },
  { command: 'undo', op: 'undo', place: 'private', newcomer: false, run: undoLatest },
  {
    command: 'settings',
    op: 'update_member',
    place: 'private',
    newcomer: false,
    run: showSettings,
  },
  {
    command: 'invite',
    op: 'create_invite',
    place: 'private',
    newcomer: false,
    run: createInviteLink,
  },
  { command: 'token', op: 'create_token', place: 'private', newcomer: false, run: startToken },
  { command: 'link', op: null, place: 'group', newcomer: false, run: linkGroup },
  { command: 'help', op: null, place: 'any', newcomer: true, run: showHelp },
];

/** The commands this catalog supports (an op missing or not offered on chat hides its command). */
export function availableCommands(core: Core): CommandSpec[] {
  const offered = new Set(surfaceOps(core.catalog, 'chat').map((op) => op.name));
  return COMMANDS.filter((c) => c.op === null || offered.has(c.op));
}

export function findCommand(core: Core, name: string): CommandSpec | undefined {
  return availableCommands(core).find((c) => c.command === name);
}

/** A command's one-line description in a language (Telegram's limit is 256 characters). */
export function describeCommand(core: Core, spec: CommandSpec, locale: Locale): string {
  const key = `chat.cmd.${spec.command}`;
  const text = t(locale, key);
  if (text !== key) return text.slice(0, 256);
  const op = spec.op ? core.catalog.find((o) => o.name === spec.op) : undefined;
  return (op?.title ?? spec.command).slice(0, 256);
}

/** The command menu for a kind of chat, as Telegram's setMyCommands wants it. */
export function commandMenu(
  core: Core,
  locale: Locale,
  place: 'private' | 'group',
): Array<{ command: string; description: string }> {
  return availableCommands(core)
    .filter((c) => c.place === 'any' || c.place === place)
    .map((c) => ({ command: c.command, description: describeCommand(core, c, locale) }));
}
