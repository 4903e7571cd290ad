import type { Review } from './statementFlow.ts';

/**
 * The model's optional part in a statement review: the names of the candidates it would create,
 * as the model-free detector found them, tidied by the household's assistant ("Netflix Com" →
 * "Netflix"). Only those names leave the machine (core/assistant/tidyNames.ts scrubs them again);
 * what comes back only replaces names on the card, and the import gives the new subscriptions the
 * names the card showed. When the model gives nothing, the names stay and the card says so.
 */

/** Tidies names by index; null when it could not (core/assistant's `tidyNames`). */
export type TidyNames = (descriptions: readonly string[]) => Promise<Map<number, string> | null>;

/** The review with these tidy names (candidate id → name) shown for its new candidates. */
export function withNames(review: Review, names: Readonly<Record<string, string>>): Review {
  const kept: Record<string, string> = {};
  const candidates = review.candidates.map((c) => {
    const name = c.tracked ? undefined : names[c.id];
    if (name === undefined) return c;
    kept[c.id] = name;
    return { ...c, name };
  });
  return { ...review, candidates, names: kept };
}

/**
 * Asks for tidy names of the review's new candidates. The model's failure, timeout, refusal or
 * an answer outside its schema leaves the names as read, with `names_raw` set for the card's note.
 */
export async function tidyReview(review: Review, tidy: TidyNames): Promise<Review> {
  const fresh = review.candidates.filter((c) => !c.tracked);
  if (fresh.length === 0) return review;
  const answer = await tidy(fresh.map((c) => c.name));
  if (!answer) return { ...review, names_raw: true };
  const names: Record<string, string> = {};
  for (const [index, name] of answer) {
    const c = fresh[index];
    if (c) names[c.id] = name;
  }
  return withNames(review, names);
}
