import { isOpError, OpError } from '../../errors/index.ts';
import { withReadProgress } from '../../imports/statements/progress.ts';
import { STATEMENT_LIMITS } from '../../imports/statements/read.ts';
import type { Core } from '../../kernel/core.ts';
import { type PendingChanges, pendingChanges } from '../../pending/index.ts';
import { importCandidates } from '../../ops/statements/importCandidates.ts';
import { readStatement } from '../../ops/statements/readStatement.ts';
import { canReconcile } from './reconcile.ts';
import { defineFeature } from '../feature.ts';
import { progressOf, readStepText } from '../progress.ts';
import {
  choosable,
  currencyReply,
  PAGE_SIZE,
  reviewOf,
  reviewReply,
  summaryLines,
} from '../statementCard.ts';
import {
  loadReview,
  type Review,
  reviewCurrency,
  saveReview,
  updateReview,
} from '../statementFlow.ts';
import { type TidyNames, tidyReview, withNames } from '../statementNames.ts';
import type { Turn } from '../turn.ts';
import type { IncomingFile, SentRef } from '../types.ts';

/**
 * Statements to subscriptions in chat, with no model needed: a file a member sends is read by
 * read_statement; a statement with subscriptions in it becomes a review card (statementCard.ts)
 * whose toggles and pages redraw it from its `flows` row, and whose "Import N" applies
 * import_candidates through the chat's pending-change service, exactly as the dry run showed.
 * The result card offers Undo. Every channel gets this: an adapter only passes the file. A file
 * whose amounts carry a sign several currencies share ("$", no other hint) is first a question,
 * one button a likely currency; the answer reads it with that currency and shows the review,
 * and the review passes it to every op it calls afterwards.
 */

/** A prepared import waits this long (it is confirmed in the same press). */
const IMPORT_TTL_MS = 10 * 60_000;
/** Undo works on the result card for a day, the longest a pending change is kept. */
const UNDO_WINDOW_MS = 24 * 3_600_000;

/**
 * The chat's import service. Given the review an import is prepared from, its pending change
 * keeps a reference to that review instead of the file (stored once, in the review, for as long
 * as the review is open) and reads the file back from the review at confirm.
 */
function imports(core: Core, reviewId?: string): PendingChanges {
  return pendingChanges(core, {
    surface: 'chat',
    ttlMs: IMPORT_TTL_MS,
    undoWindowMs: UNDO_WINDOW_MS,
    refusals: { used: 'chat.statements.used', not_found: 'chat.statements.gone' },
    args: {
      keep: ({ content: _file, ...rest }) => ({ ...rest, review: reviewId ?? null }),
      async restore({ review: id, ...rest }, change) {
        const row = typeof id === 'string' ? await loadReview(core.db, id, core.clock()) : null;
        if (!row || row.memberId !== change.memberId)
          throw new OpError('not_found', 'chat.statements.gone');
        if (row.payload.status !== 'open') throw new OpError('conflict', 'chat.statements.used');
        return { ...rest, content: row.payload.content };
      },
    },
  });
}

/** The reader's refusals that mean "this is some other kind of file" (the assistant may read it). */
const NOT_A_STATEMENT = new Set([
  'errors.statements.unreadable',
  'errors.statements.line_too_long',
]);

/** read_statement's refusal of a "$" statement that could be several currencies. */
const WHICH_CURRENCY = 'errors.statementHints.which_currency';

/**
 * Keeps the file in a review row that asks its currency (status `asking`), and shows the
 * question: one button for each likely currency the refusal named (its `codes`).
 */
async function askCurrency(
  turn: Turn,
  name: string,
  content: string,
  params: OpError['params'],
  show: (reply: ReturnType<Turn['reply']>) => Promise<void>,
): Promise<void> {
  const symbol = typeof params.symbol === 'string' ? params.symbol : '$';
  const choices = (typeof params.codes === 'string' ? params.codes : '')
    .split(',')
    .filter((c) => /^[A-Z]{3}$/.test(c));
  const review: Review = {
    file_name: name,
    content,
    summary: {
      count: 0,
      first_date: null,
      last_date: null,
      sum: '0',
      currency: '',
      imported_before: null,
    },
    candidates: [],
    absent: [],
    selected: [],
    page: 0,
    status: 'asking',
    pending_id: null,
    ask: { symbol, choices },
  };
  const id = turn.core.newId('stm');
  await saveReview(
    turn.db,
    { id, householdId: turn.actor.householdId, memberId: turn.actor.memberId, review },
    turn.now,
  );
  await show(currencyReply(turn, id, review));
}

/**
 * The member's answer to the currency question: the statement read with it, and the review card
 * in the question's place (the same row, now open, remembering the currency for the import).
 */
async function chooseCurrency(turn: Turn, id: string, currency: string, ref: SentRef | null) {
  const r = await review(turn, id);
  if (r.status !== 'asking') throw new OpError('conflict', 'chat.statements.used');
  if (!r.ask?.choices.includes(currency))
    throw new OpError('invalid_input', 'importReview.not_a_choice');
  const { output } = await turn.core.invoke(
    readStatement,
    turn.actor,
    { file_name: r.file_name, content: r.content, encoding: 'base64', currency },
    { surface: 'chat' },
  );
  const next: Review = {
    ...reviewOf(r.file_name, r.content, output),
    currency,
    reconcile: await canReconcile(turn),
  };
  await updateReview(turn.db, id, next);
  await turn.update(ref, await reviewReply(turn, id, next));
}

/** What became of a sent file: shown as a review (or refused), or not a statement this reader knows. */
export type FileOutcome =
  | { kind: 'done' }
  | {
      kind: 'other';
      /** The file's bytes, already downloaded (the assistant gets them as they are). */
      data: Uint8Array;
      /** The progress message, to edit with what happens next. */
      progress: SentRef | null;
      /** The reader's sentence ("can't find transactions…"), or null when it read no subscriptions. */
      sentence: string | null;
    };

/**
 * Reads a file a member sent as a statement: a progress message ("Reading statement.csv…") edited
 * as the work goes, then the review card in its place. A file over the reader's limit is refused
 * before it is downloaded; a limit found while reading is refused with the reader's sentence. With
 * `assistantOn`, a statement with no subscriptions found is handed on (the model may see more);
 * with `tidy` (the assistant on), the new candidates' names are tidied first (statementNames.ts).
 */
export async function readSentFile(
  turn: Turn,
  file: IncomingFile,
  options: {
    assistantOn: boolean;
    tidy?: TidyNames | undefined;
    log: (message: string, error?: unknown) => void;
  },
): Promise<FileOutcome> {
  const name = (file.name ?? 'file').slice(0, 120);
  if (file.size !== null && file.size > STATEMENT_LIMITS.bytes)
    throw new OpError('too_large', 'errors.statements.too_large', { max: '20 MB' });
  const reading = `⏳ ${turn.t('chat.statements.reading', { name })}`;
  const progress = await turn.say(reading);
  const live = progressOf(turn, progress, reading, options.log);
  const show = async (reply: ReturnType<Turn['reply']>): Promise<void> => {
    await live.settle();
    await turn.update(progress, reply);
  };
  let data: Uint8Array;
  try {
    data = await turn.withTyping(() => file.download());
  } catch (error) {
    options.log('chat: downloading a file failed', error);
    await show(turn.reply().say(turn.t('chat.assistant.file_failed')));
    return { kind: 'done' };
  }
  const content = Buffer.from(data).toString('base64');
  let summary;
  try {
    summary = (
      await turn.withTyping(() =>
        withReadProgress(
          (step) => live.set(`⏳ ${readStepText(turn.locale, step)}`),
          () =>
            turn.core.invoke(
              readStatement,
              turn.actor,
              { file_name: name, content, encoding: 'base64' },
              { surface: 'chat' },
            ),
        ),
      )
    ).output;
  } catch (error) {
    await live.settle();
    if (isOpError(error) && error.key === WHICH_CURRENCY) {
      await askCurrency(turn, name, content, error.params, show);
      return { kind: 'done' };
    }
    if (isOpError(error) && NOT_A_STATEMENT.has(error.key))
      return { kind: 'other', data, progress, sentence: error.render(turn.locale) };
    if (isOpError(error) && error.code !== 'internal') {
      await show(turn.reply().say(`⚠️ ${error.render(turn.locale)}`));
      return { kind: 'done' };
    }
    throw error;
  }
  await live.settle();
  if (summary.candidates.length === 0 && !summary.imported_before && options.assistantOn) {
    return { kind: 'other', data, progress, sentence: null };
  }
  let review: Review = {
    ...reviewOf(name, content, summary),
    reconcile: await canReconcile(turn),
  };
  const { tidy } = options;
  if (tidy && !summary.imported_before && summary.candidates.some((c) => !c.tracked)) {
    if (progress) await turn.update(progress, turn.reply().say(`⏳ ${turn.t('tidy.tidying')}`));
    review = await turn.withTyping(() => tidyReview(review, tidy));
  }
  const id = turn.core.newId('stm');
  await saveReview(
    turn.db,
    { id, householdId: turn.actor.householdId, memberId: turn.actor.memberId, review },
    turn.now,
  );
  await show(await reviewReply(turn, id, review));
  return { kind: 'done' };
}

/** The speaker's open review, or a refusal saying it is gone. */
async function review(turn: Turn, id: string): Promise<Review> {
  const row = await loadReview(turn.db, id, turn.now);
  if (!row || row.memberId !== turn.actor.memberId || row.householdId !== turn.actor.householdId)
    throw new OpError('not_found', 'chat.statements.gone');
  return row.payload;
}

async function toggle(turn: Turn, id: string, candidate: string, ref: SentRef | null) {
  const r = await review(turn, id);
  if (r.status !== 'open') throw new OpError('conflict', 'chat.statements.used');
  const c = r.candidates.find((x) => x.id === candidate);
  if (!c || !choosable(c)) throw new OpError('not_found', 'chat.statements.gone');
  const selected = r.selected.includes(candidate)
    ? r.selected.filter((x) => x !== candidate)
    : [...r.selected, candidate];
  const next: Review = { ...r, selected };
  await updateReview(turn.db, id, next);
  await turn.update(ref, await reviewReply(turn, id, next));
}

async function page(turn: Turn, id: string, to: number, ref: SentRef | null) {
  const r = await review(turn, id);
  const pages = Math.max(1, Math.ceil(r.candidates.filter(choosable).length / PAGE_SIZE));
  const next: Review = { ...r, page: Math.min(to, pages - 1) };
  await updateReview(turn.db, id, next);
  await turn.update(ref, await reviewReply(turn, id, next));
}

/** The result import_candidates gives a candidate, as the card that was pressed promised it. */
function promised(r: Review, candidate: string): string {
  const c = r.candidates.find((x) => x.id === candidate);
  if (!c?.tracked) return 'created';
  return c.tracked.price_differs ? 'price_changed' : 'already_tracked';
}

/**
 * "Import N": the press on a card Exhale wrote is the confirmation. The import is dry-run; when it
 * would do anything other than what the card said (someone tracked one of them since, the file
 * was imported from elsewhere), the card is redrawn from a fresh reading and nothing is written.
 * Otherwise it is applied through the pending-change service, exactly as the dry run showed,
 * once from any process (the statement's unique fingerprint refuses a second import).
 */
async function importChosen(turn: Turn, id: string, ref: SentRef | null) {
  const r = await review(turn, id);
  if (r.status !== 'open') throw new OpError('conflict', 'chat.statements.used');
  if (r.selected.length === 0) throw new OpError('invalid_input', 'chat.statements.none_chosen');
  const service = imports(turn.core, id);
  const args = {
    file_name: r.file_name,
    content: r.content,
    encoding: 'base64' as const,
    ...reviewCurrency(r),
    candidates: r.selected,
    ...(r.names && Object.keys(r.names).length > 0 ? { names: r.names } : {}),
  };
  let preview;
  try {
    preview = await service.preview(turn.actor, turn.core.op(importCandidates.name), args);
  } catch (error) {
    if (
      !isOpError(error) ||
      (error.key !== 'errors.statements.imported_before' &&
        error.key !== 'errors.statements.no_candidate')
    )
      throw error;
    await refresh(turn, id, r, ref);
    return;
  }
  const planned = importCandidates.output.parse(preview.output);
  if (planned.items.some((i) => i.result !== promised(r, i.candidate))) {
    await refresh(turn, id, r, ref);
    return;
  }
  const change = await service.store(turn.actor, preview);
  const applied = await service.confirm(turn.actor, change.id);
  // The review has ended: its file goes (Undo needs only the pending change's audit entry), unless
  // the result card offers Reconcile, which reads the file again (it goes with the review's day).
  await updateReview(turn.db, id, {
    ...r,
    status: 'imported',
    pending_id: change.id,
    content: r.reconcile ? r.content : '',
  });
  const done = importCandidates.output.parse(applied.result.output);
  const reply = turn.reply();
  const lines = summaryLines(turn, r);
  for (const item of done.items) {
    const c = r.candidates.find((x) => x.id === item.candidate);
    const price = c ? ` ${c.amount} ${c.currency}` : '';
    lines.push(turn.t(`chat.statements.result.${item.result}`, { name: `${item.name}${price}` }));
  }
  if (done.past_charges > 0)
    lines.push(
      turn.t(
        done.past_charges === 1
          ? 'reconcile.import.past_charges_one'
          : 'reconcile.import.past_charges',
        { count: done.past_charges },
      ),
    );
  reply.setCard({
    title: `✅ ${turn.t('chat.statements.imported', { count: done.created + done.price_changed, file: r.file_name })}`,
    lines,
  });
  if (applied.result.auditId)
    reply.row(reply.action(turn.t('chat.button.undo'), { t: 'stmt_undo', p: change.id }));
  else reply.say(turn.t('chat.nothing_changed'));
  if (r.reconcile)
    reply.row(reply.action(turn.t('reconcile.chat.button'), { t: 'rec_start', s: id }));
  await turn.update(ref, reply);
}

/** The card was stale: read the statement again and show the review as it is now. */
async function refresh(turn: Turn, id: string, old: Review, ref: SentRef | null) {
  const { output } = await turn.core.invoke(
    readStatement,
    turn.actor,
    { file_name: old.file_name, content: old.content, encoding: 'base64', ...reviewCurrency(old) },
    { surface: 'chat' },
  );
  const read = {
    ...reviewOf(old.file_name, old.content, output),
    ...reviewCurrency(old),
    reconcile: old.reconcile,
  };
  // The names the model tidied before stay on the fresh card (the model is not asked again).
  const fresh = old.names ? withNames(read, old.names) : read;
  const newId = turn.core.newId('stm');
  await saveReview(
    turn.db,
    {
      id: newId,
      householdId: turn.actor.householdId,
      memberId: turn.actor.memberId,
      review: fresh,
    },
    turn.now,
  );
  await updateReview(turn.db, id, { ...old, status: 'replaced', content: '' });
  await turn.update(
    ref,
    await reviewReply(turn, newId, fresh, `ℹ️ ${turn.t('chat.statements.stale')}`),
  );
}

async function undoImport(turn: Turn, pendingId: string, ref: SentRef | null) {
  const { change } = await imports(turn.core).undo(turn.actor, pendingId);
  const file =
    typeof change.payload.args.file_name === 'string' ? change.payload.args.file_name : '';
  await turn.update(
    ref,
    turn.reply().setCard({
      title: `↩️ ${turn.t('chat.statements.undone', { file })}`,
      lines: [turn.t('chat.statements.undone_line')],
    }),
  );
}

/** The statement review's buttons; the engine sends it files through `readSentFile`. */
export const statementsFeature = defineFeature({
  name: 'statements',
  reaches: ['import_candidates'],
  actions: {
    stmt_toggle: (turn, action, ref) => toggle(turn, action.s, action.c, ref),
    stmt_page: (turn, action, ref) => page(turn, action.s, action.page, ref),
    stmt_import: (turn, action, ref) => importChosen(turn, action.s, ref),
    stmt_currency: (turn, action, ref) => chooseCurrency(turn, action.s, action.c, ref),
    stmt_undo: (turn, action, ref) => undoImport(turn, action.p, ref),
  },
});
