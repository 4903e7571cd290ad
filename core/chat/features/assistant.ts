import type {
  AssistantMessage,
  AssistantReply,
  ProposalView,
  Screen,
} from '../../assistant/index.ts';
import { LIMITS } from '../../assistant/limits.ts';
import { isOpError, OpError } from '../../errors/index.ts';
import { type AppScreen, appButton } from '../appLinks.ts';
import type { ReplyBuilder } from '../reply.ts';
import type { Turn } from '../turn.ts';
import type { Channel, ChatAssistant, IncomingFile, SentRef } from '../types.ts';

/** Telegram's "typing…" lasts about 5 s, so it is sent again this often while an answer is written. */
const TYPING_EVERY_MS = 4_000;

function keepTyping(channel: Channel): () => void {
  const ping = (): void => void channel.typing().catch(() => undefined);
  ping();
  const timer = setInterval(ping, TYPING_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** A proposal's question as a statement ("Delete Netflix?" → "Delete Netflix"). */
function plainTitle(title: string): string {
  return title.replace(/^¿/, '').replace(/\?$/, '');
}

/**
 * A prepared change as the member sees it: Exhale's title and lines from the dry run (never the
 * model's words), a destructive one visibly marked, with Confirm and Discard.
 */
export function proposalReply(turn: Turn, card: ProposalView): ReplyBuilder {
  const reply = turn.reply();
  reply.setCard({
    title: `${card.destructive ? '⚠️' : '📝'} ${card.title}`,
    lines: card.destructive ? [...card.lines, turn.t('chat.assistant.destructive')] : card.lines,
  });
  reply.row(
    reply.action(
      turn.t(card.destructive ? 'chat.assistant.confirm_destructive' : 'chat.assistant.confirm'),
      { t: 'ai_confirm', p: card.id },
    ),
    reply.action(turn.t('chat.assistant.discard'), { t: 'ai_discard', p: card.id }),
  );
  return reply;
}

/**
 * The web app's screen that shows an assistant's screen better: one subscription's detail (a list
 * of one, or the charges of the one subscription asked for), the subscriptions, the calendar on
 * the first day of a period's charges (`calendar?day=`), the insights for totals.
 */
export function appScreenOf(screen: Screen): AppScreen {
  switch (screen.kind) {
    case 'subscriptions': {
      const [only, ...others] = screen.items;
      return only && others.length === 0 && typeof only.id === 'string'
        ? `subscriptions/${encodeURIComponent(only.id)}`
        : 'subscriptions';
    }
    case 'charges':
      return screen.subscription_id
        ? `subscriptions/${encodeURIComponent(screen.subscription_id)}`
        : `calendar?day=${screen.from}`;
    case 'totals':
      return 'insights';
    default: {
      const unreachable: never = screen;
      return unreachable;
    }
  }
}

/**
 * A screen the model asked for, as Exhale's card, with "Open in app" to the app's screen of the
 * same thing where an app can open (appLinks.ts: a Web App button in Telegram, a link in Slack and
 * the terminal, the screen itself in the app's Ask).
 */
function screenReply(turn: Turn, screen: Screen): ReplyBuilder {
  const reply = turn.reply().setCard({ title: screen.title, lines: screen.lines });
  const open = appButton(
    turn,
    reply,
    `📱 ${turn.t('chat.sub.button.open_app')}`,
    appScreenOf(screen),
  );
  if (open) reply.row(open);
  return reply;
}

/**
 * One message to the assistant, answered live: "typing…", the model's text as it is written
 * (through the channel's live view when it has one), then the finished text, the screen, one
 * card per proposal and Exhale's notice (a limit, a model error). Errors from `ask` (off, too large, too fast, empty) are
 * OpErrors the engine tells the member in their language.
 */
export async function askLive(
  turn: Turn,
  assistant: ChatAssistant,
  message: AssistantMessage,
): Promise<void> {
  const stopTyping = keepTyping(turn.channel);
  const live = turn.channel.live?.() ?? null;
  let reply: AssistantReply;
  try {
    reply = await assistant.ask(
      turn.actor,
      message,
      live ? { onText: (delta) => live.write(delta) } : undefined,
    );
  } catch (error) {
    await live?.abort();
    throw error;
  } finally {
    stopTyping();
  }
  if (live) await live.finish(reply.text);
  else if (reply.text.trim() !== '') await turn.say(reply.text);
  if (reply.screen) await turn.send(screenReply(turn, reply.screen));
  for (const card of reply.cards) await turn.send(proposalReply(turn, card));
  if (reply.notice) await turn.say(`ℹ️ ${reply.notice}`);
}

const MB = 1024 * 1024;
export const sizeText = (bytes: number): string =>
  bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KB`;

/** The assistant's limit for a file, judged from what the platform says it is (the bytes decide later). */
export function fileLimit(file: Pick<IncomingFile, 'name' | 'mediaType'>): number {
  const type = (file.mediaType ?? '').toLowerCase();
  const name = (file.name ?? '').toLowerCase();
  if (type.startsWith('image/')) return LIMITS.pictureBytes;
  if (type === 'application/pdf' || name.endsWith('.pdf')) return LIMITS.pdfBytes;
  if (type.startsWith('text/') || /\.(csv|tsv|txt|ofx|qfx|qif|json)$/.test(name))
    return LIMITS.textBytes;
  return Math.max(LIMITS.pictureBytes, LIMITS.pdfBytes, LIMITS.textBytes);
}

/**
 * A file (a statement PDF, CSV or screenshot) for the assistant, with its caption as the question.
 * A file the platform says is over the limit is refused before it is downloaded.
 */
export async function askWithFile(
  turn: Turn,
  assistant: ChatAssistant,
  file: IncomingFile,
  caption: string,
  log: (message: string, error?: unknown) => void,
): Promise<void> {
  const name = (file.name ?? 'file').slice(0, 120);
  const limit = fileLimit(file);
  if (file.size !== null && file.size > limit)
    throw new OpError('too_large', 'chat.assistant.file_too_large', {
      name,
      max: sizeText(limit),
    });
  let data: Uint8Array;
  try {
    data = await turn.withTyping(() => file.download());
  } catch (error) {
    log('chat: downloading a file failed', error);
    await turn.say(turn.t('chat.assistant.file_failed'));
    return;
  }
  await askLive(turn, assistant, {
    text: caption,
    attachments: [{ data, name, mediaType: file.mediaType }],
  });
}

/** A proposal that can no longer be used (expired, decided, not this member's) loses its buttons. */
async function settledCard(turn: Turn, error: unknown, ref: SentRef | null): Promise<void> {
  if (
    isOpError(error) &&
    (error.key.startsWith('assistant.proposal.') ||
      error.key === 'errors.preview_changed' ||
      error.key === 'errors.preview_record_gone') &&
    ref &&
    turn.channel.clearButtons
  )
    await turn.channel.clearButtons(ref).catch(() => undefined);
}

/** Confirm: applies the proposal once (from any process), then offers Undo for a day. */
export async function pressConfirm(
  turn: Turn,
  assistant: ChatAssistant,
  proposalId: string,
  ref: SentRef | null,
): Promise<void> {
  let done;
  try {
    done = await assistant.confirm(turn.actor, proposalId);
  } catch (error) {
    await settledCard(turn, error, ref);
    throw error;
  }
  const reply = turn.reply();
  const applied = done.auditId !== null;
  reply.setCard({
    title: done.title,
    lines: applied ? [...done.lines, turn.t('chat.assistant.undo_hint')] : done.lines,
  });
  if (applied) reply.row(reply.action(turn.t('chat.button.undo'), { t: 'ai_undo', p: done.id }));
  else reply.say(turn.t('chat.nothing_changed'));
  await turn.update(ref, reply);
}

/** Discard: the proposal is dropped; nothing changes. */
export async function pressDiscard(
  turn: Turn,
  assistant: ChatAssistant,
  proposalId: string,
  ref: SentRef | null,
): Promise<void> {
  await settle(turn, ref, () => assistant.discard(turn.actor, proposalId), 'discarded');
}

/** Undo on a confirmed card: reverts the applied change (within a day) through the `undo` op. */
export async function pressUndoProposal(
  turn: Turn,
  assistant: ChatAssistant,
  proposalId: string,
  ref: SentRef | null,
): Promise<void> {
  await settle(turn, ref, () => assistant.undo(turn.actor, proposalId), 'undone');
}

/** Runs a card's final action and turns the card into its outcome ("Discarded: …", "Undone: …"). */
async function settle(
  turn: Turn,
  ref: SentRef | null,
  action: () => Promise<{ title: string }>,
  outcome: 'discarded' | 'undone',
): Promise<void> {
  let out;
  try {
    out = await action();
  } catch (error) {
    await settledCard(turn, error, ref);
    throw error;
  }
  await turn.update(
    ref,
    turn.reply().setCard({
      title: turn.t(`chat.assistant.${outcome}`, { title: plainTitle(out.title) }),
      lines: [turn.t(`chat.assistant.${outcome}_line`)],
    }),
  );
}
