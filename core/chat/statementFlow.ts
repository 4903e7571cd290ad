import { z } from 'zod';

import { CYCLE_UNITS } from '../domain/cycles.ts';
import type { Database } from '../store/connection.ts';
import { defineFlow, type Flow } from '../store/repos/flows.ts';

/**
 * A statement review in chat: one `flows` row (kind `statement`) holding the file as it was sent
 * (until the review ends), what the review card showed (so a toggle redraws it without reading
 * the file again) and the member's choices. Buttons carry only `<button row>.<index>`, and their actions only this row's
 * id: the candidates never travel in a button (Telegram's callback_data is 64 bytes).
 */

/** A review can be finished for a day after the file was sent. */
export const REVIEW_TTL_MS = 24 * 3_600_000;

const Shown = z.object({
  id: z.string(),
  name: z.string(),
  amount: z.string(),
  currency: z.string(),
  cycle: z.object({ unit: z.enum(CYCLE_UNITS), every: z.int() }),
  /** read_statement's `why` and `cycle_guessed` (absent on reviews saved before they were kept). */
  why: z.string().optional(),
  cycle_guessed: z.boolean().optional(),
  /** What the household tracks under it, as the card said; null when it is new. */
  tracked: z
    .object({ name: z.string(), amount: z.string(), price_differs: z.boolean() })
    .nullable(),
});
export type ShownCandidate = z.infer<typeof Shown>;

export const ReviewSchema = z.object({
  file_name: z.string(),
  /**
   * The file's bytes, base64: import_candidates reads it again, exactly as read_statement did.
   * The one copy of the file (the import's pending change refers to this row); emptied when the
   * review ends (imported or replaced), and gone with the row when it expires.
   */
  content: z.string(),
  summary: z.object({
    count: z.int(),
    first_date: z.string().nullable(),
    last_date: z.string().nullable(),
    sum: z.string(),
    currency: z.string(),
    imported_before: z.string().nullable(),
    /** Lines of the file that could not be read, left out (absent on reviews saved before it was kept). */
    unreadable: z.int().optional(),
  }),
  candidates: z.array(Shown),
  absent: z.array(
    z.object({ name: z.string(), amount: z.string(), currency: z.string(), expected: z.int() }),
  ),
  /** Ids of the candidates ticked for import. */
  selected: z.array(z.string()),
  page: z.int().min(0),
  /**
   * `imported` by its Import; `replaced` by a fresh review after the household moved on;
   * `asking`: the file's amounts carry a sign several currencies share ("$") and the member is
   * asked which (`ask`); nothing is read from it until they answer (its summary is empty).
   */
  status: z.enum(['open', 'imported', 'replaced', 'asking']),
  /** The statement's currency as the member chose it; both ops are given it (`currency`). */
  currency: z.string().optional(),
  /** The question while `asking`: the sign and the likely currencies, as buttons in this order. */
  ask: z.object({ symbol: z.string(), choices: z.array(z.string()) }).optional(),
  /** The pending change (surface chat) the import was applied through, for Undo. */
  pending_id: z.string().nullable(),
  /**
   * The assistant's tidy names the card shows for new candidates (candidate id → name), which the
   * import gives them (statementNames.ts); absent or empty: the names as read.
   */
  names: z.record(z.string(), z.string()).optional(),
  /** The assistant was asked to tidy the names and gave none: the card says they are the bank's. */
  names_raw: z.boolean().optional(),
  /** The card offers "Reconcile" (features/reconcile.ts): the member sees a subscription. */
  reconcile: z.boolean().optional(),
});
export type Review = z.infer<typeof ReviewSchema>;

const REVIEWS = defineFlow({ kind: 'statement', ttlMs: REVIEW_TTL_MS, payload: ReviewSchema });

export async function saveReview(
  db: Database,
  entry: { id: string; householdId: string | null; memberId: string | null; review: Review },
  now: Date,
): Promise<void> {
  await REVIEWS.save(db.knex, {
    id: entry.id,
    householdId: entry.householdId,
    memberId: entry.memberId,
    payload: entry.review,
    now,
  });
}

/** The review, or null when it is gone (expired, purged, or no longer readable). */
export async function loadReview(
  db: Database,
  id: string,
  now: Date,
): Promise<Flow<Review> | null> {
  const row = await REVIEWS.load(db.knex, id);
  if (!row || row.expiresAt <= now.toISOString()) return null;
  return row;
}

/**
 * The file of a chat review still open for this member, as the web app's import review reads it
 * (the card's "Review in app" opens `/app/import/<review id>`); null when it is gone, settled or
 * someone else's.
 */
export async function reviewFile(
  db: Database,
  id: string,
  memberId: string,
  now: Date,
): Promise<{
  file_name: string;
  content: string;
  names?: Record<string, string>;
  /** The currency the member chose in chat for a "$" statement; the app passes it to both ops. */
  currency?: string;
} | null> {
  const row = await loadReview(db, id, now);
  if (!row || row.memberId !== memberId || row.payload.status !== 'open') return null;
  const { file_name, content, names, currency } = row.payload;
  // The names the card showed (tidied by the assistant): the app shows and imports the same.
  return {
    file_name,
    content,
    ...(names && Object.keys(names).length > 0 ? { names } : {}),
    ...(currency === undefined ? {} : { currency }),
  };
}

/** The ops' `currency` for a review: the one its member chose, or none (the file's, the household's). */
export function reviewCurrency(review: Review): { currency?: string } {
  return review.currency === undefined ? {} : { currency: review.currency };
}

/** Replaces what the review holds (a toggle, a page, the import that settled it). */
export async function updateReview(db: Database, id: string, review: Review): Promise<void> {
  await REVIEWS.settle(db.knex, id, review);
}
