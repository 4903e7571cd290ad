// Which reminders are due, and the sent-log that makes each one go out once.
export { findDueReminders } from './due.ts';
export {
  claimReminder,
  LEASE_MS,
  markFailed,
  markSent,
  MAX_ATTEMPTS,
  purgeReminderLog,
} from './log.ts';
export type { DueReminder, Reminder, ReminderKind } from './types.ts';
