import { type AuditRow, changesOf } from '../store/repos/audit.ts';
import type { ChangeEvent } from './events.ts';

/**
 * The change event an audit entry stands for: how a process rebuilds the events of changes another
 * process committed (PostgresEventBus for an event too big for NOTIFY and after a reconnection,
 * SqliteEventBus for every one).
 */
export function eventOf(row: AuditRow): ChangeEvent {
  return {
    kind: 'changed',
    householdId: row.household_id,
    auditId: row.id,
    op: row.op,
    actor: {
      kind: row.actor_kind,
      memberId: row.member_id,
      channel: row.channel,
      agentName: row.agent_name ?? undefined,
    },
    entities: changesOf(row).map((c) => ({ table: c.table, id: c.id })),
  };
}
