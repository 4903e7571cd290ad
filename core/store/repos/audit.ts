import type { Change } from '../tracked.ts';

/** An `audit_entries` row as stored. */
export interface AuditRow {
  seq: number;
  id: string;
  household_id: string;
  member_id: string | null;
  actor_kind: string;
  channel: string;
  agent_name: string | null;
  token_id: string | null;
  op: string;
  input: string;
  changes: string;
  /** English, for logs; render summary_text for people (core/i18n/activity.ts). */
  summary: string;
  /** JSON of the line's text; null for entries recorded before texts were kept. */
  summary_text: string | null;
  private_to: string | null;
  undone_by: string | null;
  links: string | null;
  created_at: string;
}

export function changesOf(row: AuditRow): Change[] {
  return JSON.parse(row.changes) as Change[];
}
