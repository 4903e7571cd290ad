import type { SubscriptionRow } from '../../../store/repos/subscriptions.ts';

/** What a new subscription must say; everything else starts empty (active, public, no dates). */
export type NewSubscription = Pick<
  SubscriptionRow,
  | 'id'
  | 'household_id'
  | 'member_id'
  | 'name'
  | 'amount_minor'
  | 'currency'
  | 'cycle_unit'
  | 'cycle_every'
  | 'first_charge_date'
  | 'created_at'
> &
  Partial<SubscriptionRow>;

/** A full `subscriptions` row for an insert: the given fields over the defaults of a new one. */
export function newSubscriptionRow(fields: NewSubscription): SubscriptionRow {
  return {
    vendor: null,
    status: 'active',
    trial_ends_on: null,
    paused_on: null,
    cancelled_on: null,
    contract_ends_on: null,
    notice_days: null,
    category_id: null,
    payment_method_id: null,
    notes: null,
    url: null,
    cancel_url: null,
    private: 0,
    updated_at: fields.created_at,
    ...fields,
  };
}
