/**
 * Rows of the household's tables as stored (text, integers and nulls only), for typed reads:
 * `ctx.tx.from<MemberRow>('members')` returns `MemberRow[]` with no cast. Subscriptions, charges
 * and audit entries have theirs beside their repositories.
 */

export interface MemberRow {
  id: string;
  household_id: string;
  name: string;
  role: 'owner' | 'member';
  language: string;
  reminder_offsets: string;
  reminder_time: string;
  created_at: string;
}

/** A category, payment method or tag: a household's named grouping. */
export interface NamedRow {
  id: string;
  household_id: string;
  name: string;
  created_at: string;
}

export interface ShareRow {
  id: string;
  household_id: string;
  subscription_id: string;
  member_id: string;
  share_bp: number;
}

export interface SubscriptionTagRow {
  id: string;
  household_id: string;
  subscription_id: string;
  tag_id: string;
}

export interface FxRateRow {
  id: string;
  household_id: string;
  currency: string;
  date: string;
  per_eur: number;
  source: string;
}
