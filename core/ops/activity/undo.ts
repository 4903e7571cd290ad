import { z } from 'zod';

import { OpError } from '../../kernel/errors.ts';
import { defineOp } from '../../kernel/op.ts';
import { type AuditRow, changesOf } from '../../store/repos/audit.ts';
import { Id } from '../shared/schemas.ts';
import { canUndo, visibleEntries } from './visibility.ts';

export const undo = defineOp({
  name: 'undo',
  title: 'Undo changes',
  description:
    "Undoes one or more earlier changes (ids from list_activity), newest first, in one transaction: every record they touched goes back to how it was. Without ids it undoes the caller's most recent change. Refuses, changing nothing, when a record was changed again since. Undoing an undo re-applies the change.",
  input: z.object({ ids: z.array(Id).min(1).max(50).optional() }),
  output: z.object({
    undone: z.array(z.object({ id: z.string(), summary: z.string() })),
    changes: z.int(),
  }),
  effect: 'write',
  scope: 'write',
  summarize: (_input, output) => `Undid: ${output.undone.map((u) => u.summary).join('; ')}`,
  async run(ctx, input) {
    let entries: AuditRow[];
    if (input.ids) {
      entries = (await visibleEntries(ctx).whereIn('id', input.ids)) as AuditRow[];
      const missing = input.ids.find((id) => !entries.some((e) => e.id === id));
      if (missing !== undefined)
        throw new OpError('not_found', 'errors.not_found.activity', { id: missing });
    } else {
      const latest = (await visibleEntries(ctx)
        .andWhere({ member_id: ctx.actor.memberId ?? '' })
        .whereNull('undone_by')
        // "Undo my last change" never means "leave the household": creating or joining one is
        // undone only when named explicitly.
        .whereNotIn('op', ['create_household', 'join_household'])
        .orderBy('seq', 'desc')
        .first()) as AuditRow | undefined;
      if (!latest) throw new OpError('not_found', 'errors.nothing_to_undo');
      entries = [latest];
    }
    entries.sort((a, b) => b.seq - a.seq);
    for (const entry of entries) {
      if (entry.undone_by !== null)
        throw new OpError('conflict', 'errors.already_undone', { summary: entry.summary });
      if (!canUndo(ctx, entry))
        throw new OpError('forbidden', 'errors.undo_not_yours', { summary: entry.summary });
    }
    for (const entry of entries) {
      await ctx.tx.revert(changesOf(entry));
      await ctx.tx.from('audit_entries').where({ id: entry.id }).update({ undone_by: ctx.auditId });
      if (entry.op === 'undo')
        await ctx.tx
          .from('audit_entries')
          .where({ undone_by: entry.id })
          .update({ undone_by: null });
    }
    return {
      undone: entries.map((e) => ({ id: e.id, summary: e.summary })),
      changes: ctx.tx.changes.length,
    };
  },
});
