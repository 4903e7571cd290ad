import type { Knex } from 'knex';

import { scopeAllows } from '../../../kernel/actor.ts';
import type { OpContext } from '../../../kernel/op.ts';
import type { AuditRow } from '../../../store/repos/audit.ts';
import { household } from '../../shared/context.ts';

/** Audit entries the actor may see: all of the household's, except ones about another member's private subscription made by someone else. */
export function visibleEntries(ctx: OpContext): Knex.QueryBuilder<AuditRow, AuditRow[]> {
  if (ctx.actor.audience === 'shared') {
    return ctx.tx
      .from<AuditRow>('audit_entries')
      .where({ household_id: household(ctx).id })
      .whereNull('private_to');
  }
  return ctx.tx
    .from<AuditRow>('audit_entries')
    .where({ household_id: household(ctx).id })
    .andWhere((q) => {
      // Its author always sees an entry (a category delete may touch someone's private subscription);
      // summaries name only what the author could see, so nothing private leaks.
      q.whereNull('private_to')
        .orWhere('private_to', ctx.actor.memberId ?? '')
        .orWhere('member_id', ctx.actor.memberId ?? '');
    });
}

/**
 * Why the actor may not undo an entry, as a text key, or null when they may. Members undo their
 * own changes (theirs, their agents' and their assistant's); the owner undoes anyone's. And undo
 * is never a way around a scope: the caller must be allowed to run the op it reverts (a write
 * token cannot un-revoke a token, the assistant cannot bring back a removed member).
 */
export function undoRefusal(ctx: OpContext, row: AuditRow): string | null {
  // A household is never undone: it would take every member's data with it.
  if (row.op === 'create_household') return 'errors.undo_household';
  const op = ctx.findOp(row.op);
  // Refused for everyone, owner included: the op says why (docs/architecture.md, "Undo").
  if (op?.notUndoable !== undefined) return op.notUndoable;
  if (
    ctx.actor.role !== 'owner' &&
    (row.member_id === null || row.member_id !== ctx.actor.memberId)
  ) {
    return 'errors.undo_not_yours';
  }
  if (!op) return null;
  if (!scopeAllows(ctx.actor.scope, op.scope)) return 'errors.undo_needs_scope';
  if (ctx.actor.kind === 'assistant' && op.scope === 'trusted') return 'errors.undo_needs_scope';
  if (op.ownerOnly && ctx.actor.role !== 'owner') return 'errors.undo_not_yours';
  return null;
}

export function canUndo(ctx: OpContext, row: AuditRow): boolean {
  return row.undone_by === null && undoRefusal(ctx, row) === null;
}
