import { appButton } from './appLinks.ts';
import type { Locale } from '../i18n/index.ts';
import type { StatementSummary } from '../ops/statements/_lib/schemas.ts';
import { cycleText, formatDate, formatInstant, money } from './format.ts';
import type { ReplyBuilder } from './reply.ts';
import type { Review, ShownCandidate } from './statementFlow.ts';
import type { Turn } from './turn.ts';

/**
 * The review card of a statement, written by Exhale from read_statement's result (never a model's
 * words): the period, count and sum, then a toggle per candidate (8 a page; ❔ when its cycle is
 * a guess, with read_statement's `why` on a line of its own), the tracked ones marked, the tracked
 * subscriptions the statement should show but does not, and "Import N".
 */

export const PAGE_SIZE = 8;
/** Tracked and absent subscriptions are listed up to this many each; the rest are counted. */
const LIST_MAX = 10;

/** What a review row keeps of read_statement's result, with the new ones ticked. */
export function reviewOf(fileName: string, content: string, summary: StatementSummary): Review {
  const candidates: ShownCandidate[] = summary.candidates.map((c) => ({
    id: c.id,
    name: c.name,
    amount: c.amount,
    currency: c.currency,
    cycle: c.cycle,
    why: c.why,
    cycle_guessed: c.cycle_guessed,
    tracked: c.tracked
      ? { name: c.tracked.name, amount: c.tracked.amount, price_differs: c.tracked.price_differs }
      : null,
  }));
  const tx = summary.transactions;
  return {
    file_name: fileName,
    content,
    summary: {
      count: tx.count,
      first_date: tx.first_date,
      last_date: tx.last_date,
      sum: tx.sum,
      currency: tx.currency,
      imported_before: summary.imported_before,
      unreadable: summary.skipped.unreadable,
    },
    candidates,
    absent: summary.absent.map((a) => ({
      name: a.name,
      amount: a.amount,
      currency: a.currency,
      expected: a.expected_on.length,
    })),
    // read_statement's rule, the same on every surface: new ones, and a price change of a
    // subscription of the candidate's own name; a change to another name's price is offered.
    selected: summary.candidates.filter((c) => c.preselected).map((c) => c.id),
    page: 0,
    status: 'open',
    pending_id: null,
  };
}

/** A candidate the member can choose: new, or tracked at another price. */
export function choosable(c: ShownCandidate): boolean {
  return c.tracked === null || c.tracked.price_differs;
}

function label(c: ShownCandidate, locale: Locale): string {
  return `${c.name} ${money(c.amount, c.currency, locale)} · ${cycleText(c.cycle, locale)}`;
}

/** A toggle's text: the label, marked ❔ when its cycle is a guess (the card's lines say why). */
function toggleLabel(c: ShownCandidate, locale: Locale): string {
  return c.cycle_guessed ? `${label(c, locale)} ❔` : label(c, locale);
}

/**
 * The first lines of every statement card: the period, the count and the sum, and how many lines
 * could not be read (left out, so the count and the period may fall short of the file's).
 */
export function summaryLines(turn: Turn, review: Review): string[] {
  const s = review.summary;
  const lines: string[] = [];
  if (s.first_date && s.last_date)
    lines.push(
      turn.t('chat.statements.period', {
        from: formatDate(s.first_date, turn.locale),
        to: formatDate(s.last_date, turn.locale),
      }),
    );
  lines.push(
    turn.t(s.count === 1 ? 'chat.statements.count_one' : 'chat.statements.count', {
      count: s.count,
      sum: money(s.sum, s.currency, turn.locale),
    }),
  );
  const unreadable = s.unreadable ?? 0;
  if (unreadable > 0)
    lines.push(
      turn.t(unreadable === 1 ? 'chat.statements.unreadable_one' : 'chat.statements.unreadable', {
        count: unreadable,
      }),
    );
  return lines;
}

/** The review card with its buttons, as the review stands now. */
export async function reviewReply(
  turn: Turn,
  id: string,
  review: Review,
  note?: string,
): Promise<ReplyBuilder> {
  const reply = turn.reply();
  const lines = summaryLines(turn, review);
  const imported = review.summary.imported_before;
  if (imported) {
    const date = formatInstant(imported, turn.locale, await turn.timeZone(), { time: false });
    lines.push(`⚠️ ${turn.t('errors.statements.imported_before', { date })}`);
  }
  const open = review.candidates.filter(choosable);
  const same = review.candidates.filter((c) => !choosable(c));
  lines.push(
    review.candidates.length === 0
      ? `${turn.t('chat.statements.none_found')} ${turn.t('statementHints.none_found')}`
      : turn.t('chat.statements.found', { count: review.candidates.length }),
  );
  // A cycle that is a guess (a known service seen once): said before the person imports it.
  const guessed = review.status === 'open' ? open.filter((c) => c.cycle_guessed && c.why) : [];
  for (const c of guessed.slice(0, LIST_MAX))
    lines.push(turn.t('chat.statements.guessed', { name: c.name, why: c.why ?? '' }));
  if (guessed.length > LIST_MAX)
    lines.push(turn.t('chat.statements.more', { count: guessed.length - LIST_MAX }));
  for (const c of same.slice(0, LIST_MAX))
    lines.push(`✔️ ${turn.t('chat.statements.tracked', { name: label(c, turn.locale) })}`);
  if (same.length > LIST_MAX)
    lines.push(turn.t('chat.statements.more', { count: same.length - LIST_MAX }));
  if (review.absent.length > 0) {
    lines.push(turn.t('chat.statements.absent_title'));
    for (const a of review.absent.slice(0, LIST_MAX))
      lines.push(
        `• ${turn.t(a.expected === 1 ? 'chat.statements.absent_one' : 'chat.statements.absent', {
          name: a.name,
          amount: money(a.amount, a.currency, turn.locale),
          count: a.expected,
        })}`,
      );
    if (review.absent.length > LIST_MAX)
      lines.push(turn.t('chat.statements.more', { count: review.absent.length - LIST_MAX }));
  }
  if (review.names_raw && review.status === 'open' && open.length > 0)
    lines.push(`ℹ️ ${turn.t('tidy.names_raw')}`);
  if (note) lines.push(note);
  reply.setCard({ title: `📄 ${review.file_name}`, lines });
  if (review.reconcile)
    reply.row(reply.action(turn.t('reconcile.chat.button'), { t: 'rec_start', s: id }));
  if (imported || review.status !== 'open') return reply;

  const pages = Math.max(1, Math.ceil(open.length / PAGE_SIZE));
  const page = Math.min(review.page, pages - 1);
  for (const c of open.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE)) {
    const on = review.selected.includes(c.id);
    const text = c.tracked
      ? turn.t('chat.statements.price_differs', {
          name: c.name,
          tracked: c.tracked.name,
          old: money(c.tracked.amount, c.currency, turn.locale),
          new: money(c.amount, c.currency, turn.locale),
          cycle: cycleText(c.cycle, turn.locale),
        })
      : toggleLabel(c, turn.locale);
    reply.row(reply.action(`${on ? '✅' : '⬜'} ${text}`, { t: 'stmt_toggle', s: id, c: c.id }));
  }
  if (pages > 1)
    reply.row(
      ...(page > 0
        ? [reply.action(turn.t('chat.button.prev'), { t: 'stmt_page', s: id, page: page - 1 })]
        : []),
      ...(page < pages - 1
        ? [reply.action(turn.t('chat.button.next'), { t: 'stmt_page', s: id, page: page + 1 })]
        : []),
    );
  const count = review.selected.length;
  if (count > 0)
    reply.row(
      reply.action(turn.t('chat.statements.import', { count }), { t: 'stmt_import', s: id }),
    );
  // The same review on a bigger screen: the app's import review reads this review's file.
  const inApp = appButton(
    turn,
    reply,
    `📱 ${turn.t('web.wu.review_in_app')}`,
    `import/${encodeURIComponent(id)}`,
  );
  if (inApp) reply.row(inApp);
  return reply;
}

/** Buttons a row of the currency question. */
const CHOICES_A_ROW = 3;

/**
 * The question a "$" statement is read with once answered: which currency its amounts are in,
 * one button a likely currency (the ones the household's subscriptions use first), in place of
 * the review card until the member presses one (features/statements.ts, `stmt_currency`).
 */
export function currencyReply(turn: Turn, id: string, review: Review): ReplyBuilder {
  const reply = turn.reply();
  const ask = review.ask;
  reply.setCard({
    title: `📄 ${review.file_name}`,
    lines: [turn.t('importReview.which_currency', { symbol: ask?.symbol ?? '$' })],
  });
  const choices = ask?.choices ?? [];
  for (let i = 0; i < choices.length; i += CHOICES_A_ROW)
    reply.row(
      ...choices
        .slice(i, i + CHOICES_A_ROW)
        .map((c) => reply.action(c, { t: 'stmt_currency', s: id, c })),
    );
  return reply;
}
