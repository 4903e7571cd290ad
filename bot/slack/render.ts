import type { types } from '@slack/bolt';

import type { Button, Reply } from '../../core/chat/index.ts';

/**
 * A Block Kit block as Exhale writes them (sections, a context line, actions). Slack's own types
 * (`@slack/types`) are wider than what is written here; this is what tests read back.
 */
export type SlackBlock =
  | { type: 'section'; text: { type: 'mrkdwn'; text: string } }
  | { type: 'actions'; block_id: string; elements: SlackButton[] };

export type SlackButton =
  | {
      type: 'button';
      action_id: string;
      text: { type: 'plain_text'; text: string; emoji: true };
      value: string;
    }
  | {
      type: 'button';
      action_id: string;
      text: { type: 'plain_text'; text: string; emoji: true };
      url: string;
    };

/** One Slack message: the fallback text (notifications, screen readers) and its blocks. */
export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
}

/** Prefix of the `action_id` of a button that runs an engine action; the value is its payload. */
export const ACTION_PREFIX = 'exhale:';
/** Prefix of a link button's `action_id` (Slack still reports the click; it is only acknowledged). */
export const LINK_PREFIX = 'link:';

/** Slack's limits: a section's text, a button's label, the fallback text, blocks per message. */
const SECTION_MAX = 3000;
const LABEL_MAX = 75;
const FALLBACK_MAX = 3900;
const BLOCKS_MAX = 50;

/** Slack mrkdwn treats only these three as control characters. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Slack sends a message that starts with `/` to its own command box, so the engine's commands are
 * typed as `/exhale <command>` there: texts that name a command (`/start <code>`, `/add`) are
 * written the way a Slack user types them.
 */
export function slackCommands(text: string, commands: ReadonlySet<string>): string {
  return text.replace(/(^|[\s("'“«¿¡])\/([a-z_]+)\b/g, (whole, before: string, name: string) =>
    commands.has(name) ? `${before}/exhale ${name}` : whole,
  );
}

/** Sections of at most Slack's length, cut on line boundaries (a longer line is cut as it is). */
function sections(text: string): SlackBlock[] {
  const out: SlackBlock[] = [];
  let current = '';
  const flush = (): void => {
    if (current.trim().length > 0)
      out.push({ type: 'section', text: { type: 'mrkdwn', text: current } });
    current = '';
  };
  for (const line of text.split('\n')) {
    for (let i = 0; i < Math.max(line.length, 1); i += SECTION_MAX) {
      const piece = line.slice(i, i + SECTION_MAX);
      const next = current ? `${current}\n${piece}` : piece;
      if (next.length > SECTION_MAX) {
        flush();
        current = piece;
      } else current = next;
    }
  }
  flush();
  return out;
}

const label = (text: string): string =>
  text.length > LABEL_MAX ? `${text.slice(0, LABEL_MAX - 1)}…` : text;

function button(b: Button, index: number): SlackButton {
  const text = { type: 'plain_text' as const, text: label(b.label), emoji: true as const };
  switch (b.kind) {
    case 'action':
      return { type: 'button', action_id: `${ACTION_PREFIX}${b.payload}`, text, value: b.payload };
    case 'url':
    case 'webapp':
      // Slack has no Mini Apps: the web app opens in the browser like any link.
      return { type: 'button', action_id: `${LINK_PREFIX}${index}`, text, url: b.url };
    default: {
      const unreachable: never = b;
      return unreachable;
    }
  }
}

/**
 * A reply as one Slack message: the card's title in bold, its lines and its code as sections, the
 * text after it, one actions block per row of buttons (an action button's `action_id` carries the
 * engine's payload, a link button opens its URL). Everything is Exhale's text, escaped for mrkdwn.
 */
export function renderSlack(reply: Reply, commands: ReadonlySet<string> = new Set()): SlackMessage {
  const say = (text: string): string => slackCommands(escapeMrkdwn(text), commands);
  const blocks: SlackBlock[] = [];
  const plain: string[] = [];
  if (reply.card) {
    const lines = [`*${say(reply.card.title)}*`, ...reply.card.lines.map(say)];
    blocks.push(...sections(lines.join('\n')));
    plain.push(reply.card.title, ...reply.card.lines.map((l) => slackCommands(l, commands)));
    if (reply.card.code) {
      blocks.push(...sections(`\`\`\`${escapeMrkdwn(reply.card.code)}\`\`\``));
      plain.push(reply.card.code);
    }
  }
  if (reply.text) {
    blocks.push(...sections(say(reply.text)));
    plain.push(slackCommands(reply.text, commands));
  }
  let index = 0;
  const rows = (reply.buttons ?? []).filter((row) => row.length > 0);
  rows.forEach((row, r) => {
    blocks.push({
      type: 'actions',
      block_id: `row${r}`,
      elements: row.map((b) => button(b, index++)),
    });
  });
  // Past Slack's block limit the text is kept and the buttons stay last.
  const actions = blocks.filter((b) => b.type === 'actions');
  const texts = blocks.filter((b) => b.type === 'section').slice(0, BLOCKS_MAX - actions.length);
  const fallback = plain.join('\n') || '…';
  return {
    text: fallback.length > FALLBACK_MAX ? `${fallback.slice(0, FALLBACK_MAX - 1)}…` : fallback,
    blocks: [...texts, ...actions],
  };
}

/**
 * The blocks of a message without its buttons (after a one-time action ran). Blocks come back from
 * Slack (a press reports the message) as unknown JSON; those kept are any block but `actions`.
 */
export function withoutButtons(blocks: readonly unknown[]): types.AnyBlock[] {
  const kept: types.AnyBlock[] = [];
  for (const b of blocks)
    if (
      typeof b === 'object' &&
      b !== null &&
      'type' in b &&
      typeof b.type === 'string' &&
      b.type !== 'actions'
    )
      kept.push({ ...b, type: b.type });
  return kept;
}
