import { searchKey } from '../../../domain/text.ts';

/**
 * Whether a review of a statement starts with a candidate chosen, the one rule for every surface
 * (chat's card, the app's review, an agent reading read_statement): a new subscription is; a
 * tracked one at the same price is not choosable at all; a price change is chosen only when the
 * tracked subscription has the candidate's own name (case and accents aside). A statement's
 * "SPOTIFY" matched to the household's "Spotify Family" would change another name's price: the
 * person opts in, having read which one and by how much. So does a price seen on one charge only
 * (a well-known service on a one-month or an old statement): one charge is too little to replace
 * the tracked price on its own.
 */
export function preselected(candidate: {
  name: string;
  /** How many of the candidate's charges the statement shows. */
  charges: number;
  tracked: { name: string; price_differs: boolean } | null;
}): boolean {
  const { tracked } = candidate;
  if (tracked === null) return true;
  return (
    tracked.price_differs &&
    candidate.charges > 1 &&
    searchKey(tracked.name).trim() === searchKey(candidate.name).trim()
  );
}
