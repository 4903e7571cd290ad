/** What a reminder is about. */
export type ReminderKind = 'charge' | 'trial_end' | 'notice' | 'price_increase';

/**
 * One reminder occurrence for one member: an event (a charge, a trial's end, the last day to give
 * notice, a price increase) and how many days before it the member asked to hear about it.
 */
export interface Reminder {
  /** Unique per occurrence; the id of its `reminder_log` row. */
  key: string;
  kind: ReminderKind;
  householdId: string;
  memberId: string;
  /** The member's language. */
  language: string;
  subscriptionId: string;
  subscriptionName: string;
  /** The event's local date: due date, trial end, notice deadline or the new price's first day. */
  eventDate: string;
  offsetDays: number;
  /** When it was due: `reminder_time` on `eventDate - offsetDays` in the household's time zone. */
  fireAt: string;
  /** The household's local date when it was found (for "tomorrow", "in 3 days"). */
  today: string;
  /** The charge's amount, or the new price. */
  amount: string | null;
  /** The price before an increase. */
  oldAmount: string | null;
  currency: string;
  cancelUrl: string | null;
  /** For a notice reminder: the day the contract ends. */
  contractEnds: string | null;
}

/** A reminder to send now, and the earlier offsets of the same event it replaces (after downtime). */
export interface DueReminder {
  reminder: Reminder;
  supersedes: Reminder[];
}
