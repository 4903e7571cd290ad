import { z } from 'zod';

import { renderSummary, storedActivity } from '../../i18n/activity.ts';
import { defineOp } from '../../kernel/op.ts';
import type { AuditRow } from '../../store/repos/audit.ts';
import type { MemberRow } from '../../store/repos/rows.ts';
import { changesOf } from '../../store/repos/audit.ts';
import { OpError } from '../../errors/index.ts';
import { household, requireOwned } from '../shared/context.ts';
import { Id } from '../../domain/schemas.ts';
import { canUndo, visibleEntries } from './_lib/visibility.ts';

export const ActivityEntry = z.object({
  id: Id,
  op: z.string(),
  summary: z.string().describe('What changed, in your language.'),
  member_id: Id.nullable(),
  member_name: z.string().nullable(),
  actor_kind: z.string(),
  channel: z.string(),
  agent_name: z.string().nullable(),
  token_id: Id.nullable(),
  changes: z.int().describe('How many records the change touched.'),
  undone: z.boolean(),
  can_undo: z.boolean(),
  undo_effect: z
    .enum(['undone', 'redone'])
    .describe(
      "What undoing this entry does, as undo's `effect` says it: 'undone' takes its change back; 'redone' brings back what this entry (an undo) took back. A screen labels its button Undo or Redo by it.",
    ),
  created_at: z.string(),
});

/**
 * What undoing an entry does: an undo whose own line is "Undone: …" brings its changes back
 * (a redo); a redo ("Redone: …", undo's `redone` variant) and every other change are taken back.
 */
function undoEffectOf(row: AuditRow): 'undone' | 'redone' {
  if (row.op !== 'undo') return 'undone';
  return storedActivity(row).key === 'activity.undo.redone' ? 'undone' : 'redone';
}

export const listActivity = defineOp({
  name: 'list_activity',
  title: 'List activity',
  description:
    'Lists recent changes, newest first: what changed, who made it and through what, and whether it can still be undone (pass its id to undo). Page with before.',
  input: z.object({
    limit: z.int().min(1).max(100).default(20),
    before: Id.optional().describe('Only entries older than this entry id.'),
    member_id: Id.optional(),
    agents_only: z.boolean().default(false).describe('Only changes made by agents over MCP.'),
  }),
  output: z.object({ items: z.array(ActivityEntry), has_more: z.boolean() }),
  effect: 'read',
  idempotent: true,
  async run(ctx, input) {
    const q = visibleEntries(ctx);
    if (input.before) {
      const cursor = (await ctx.tx
        .from('audit_entries')
        .where({ id: input.before, household_id: household(ctx).id })
        .first('seq')) as { seq: number } | undefined;
      if (!cursor)
        throw new OpError('not_found', 'errors.not_found.activity', { id: input.before });
      q.andWhere('seq', '<', cursor.seq);
    }
    if (input.member_id) {
      await requireOwned(ctx, 'members', 'member', input.member_id);
      q.andWhere('member_id', input.member_id);
    }
    if (input.agents_only) q.whereNotNull('agent_name');
    const rows: AuditRow[] = await q.orderBy('seq', 'desc').limit(input.limit + 1);
    const members = await ctx.tx
      .from<MemberRow>('members')
      .where({ household_id: household(ctx).id })
      .select('id', 'name');
    const names = new Map(members.map((m) => [m.id, m.name]));
    return {
      has_more: rows.length > input.limit,
      items: rows.slice(0, input.limit).map((row) => ({
        id: row.id,
        op: row.op,
        summary: renderSummary(ctx.actor.locale, row),
        member_id: row.member_id,
        member_name: row.member_id ? (names.get(row.member_id) ?? null) : null,
        actor_kind: row.actor_kind,
        channel: row.channel,
        agent_name: row.agent_name,
        token_id: row.token_id,
        changes: changesOf(row).length,
        undone: row.undone_by !== null,
        can_undo: canUndo(ctx, row),
        undo_effect: undoEffectOf(row),
        created_at: row.created_at,
      })),
    };
  },
});
