import type { Knex } from 'knex';

import type { OpContext } from '../../kernel/op.ts';
import type { AuditRow } from '../../store/repos/audit.ts';
import { household } from '../shared/context.ts';

/** Audit entries the actor may see: all of the household's, except ones about another member's private subscription made by someone else. */
export function visibleEntries(ctx: OpContext): Knex.QueryBuilder {
  if (ctx.actor.audience === 'shared') {
    return ctx.tx
      .from('audit_entries')
      .where({ household_id: household(ctx).id })
      .whereNull('private_to');
  }
  return ctx.tx
    .from('audit_entries')
    .where({ household_id: household(ctx).id })
    .andWhere((q) => {
      // Its author always sees an entry (a category delete may touch someone's private subscription);
      // summaries name only what the author could see, so nothing private leaks.
      q.whereNull('private_to')
        .orWhere('private_to', ctx.actor.memberId ?? '')
        .orWhere('member_id', ctx.actor.memberId ?? '');
    });
}

/** Members undo their own changes (theirs, their agents' and their assistant's); the owner undoes anyone's. */
export function canUndo(ctx: OpContext, row: AuditRow): boolean {
  if (row.undone_by !== null) return false;
  return (
    ctx.actor.role === 'owner' || (row.member_id !== null && row.member_id === ctx.actor.memberId)
  );
}
