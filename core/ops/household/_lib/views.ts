import type { Row } from '../../../store/tracked.ts';
import type { Household, Member } from '../../../domain/schemas.ts';

export function householdView(row: Row): Household {
  return {
    id: String(row.id),
    name: String(row.name),
    currency: String(row.currency),
    time_zone: String(row.time_zone),
    locale: String(row.locale),
    created_at: String(row.created_at),
  };
}

export function memberView(row: Row): Member {
  return {
    id: String(row.id),
    name: String(row.name),
    role: row.role === 'owner' ? 'owner' : 'member',
    language: String(row.language),
    reminder_offsets: JSON.parse(String(row.reminder_offsets)) as number[],
    reminder_time: String(row.reminder_time),
    created_at: String(row.created_at),
  };
}

/** Reminder defaults for a new member: three days and one day before, at nine in the morning. */
export const DEFAULT_REMINDERS = { reminder_offsets: '[3,1]', reminder_time: '09:00' } as const;
