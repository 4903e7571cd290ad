import { z } from 'zod';

import {
  renderActivity,
  renderSummary,
  storedActivity,
  undoneActivity,
} from '../../i18n/activity.ts';
import { OpError } from '../../errors/index.ts';
import { defineOp, type OpContext } from '../../kernel/op.ts';
import { type AuditRow, changesOf } from '../../store/repos/audit.ts';
import { Id } from '../../domain/schemas.ts';
import { undoRefusal, visibleEntries } from './_lib/visibility.ts';

export const undo = defineOp({
  name: 'undo',
  title: 'Undo changes',
  description:
    "Undoes changes (ids from list_activity) in one transaction, or without ids the caller's latest (an agent's: made with its own token; never the demo household's seeded history). Refused, changing nothing, when a record changed again since; undoing an undo redoes.",
  input: z.object({ ids: z.array(Id).min(1).max(50).optional() }),
  output: z.object({
    undone: z.array(
      z.object({
        id: Id,
        summary: z.string().describe('The activity entry undone, in your language.'),
        effect: z
          .enum(['undone', 'redone'])
          .describe(
            "'redone' when the entry was itself an undo: undoing it brings the change back.",
          ),
        changes: z
          .array(z.string())
          .describe('The changes taken back (undone) or brought back (redone), in your language.'),
      }),
    ),
    changes: z.int(),
  }),
  // Destructive: undoing an addition deletes it, and undoing an undo does the change again.
  effect: 'destructive',
  // Carries the undone entries' own lines (in `links` order): every reader reads it in their language.
  links: (output) => output.undone.map((u) => u.id),
  // "Redone: …" when every entry undone was an undo (the changes are back), else "Undone: …".
  summaryVariant: (_input, output) =>
    output.undone.length > 0 && output.undone.every((u) => u.effect === 'redone') ? 'redone' : null,
  async run(ctx, input) {
    let entries: AuditRow[];
    if (input.ids) {
      entries = await visibleEntries(ctx).whereIn('id', input.ids);
      const missing = input.ids.find((id) => !entries.some((e) => e.id === id));
      if (missing !== undefined)
        throw new OpError('not_found', 'errors.not_found.activity', { id: missing });
    } else {
      const mine = visibleEntries(ctx).andWhere({ member_id: ctx.actor.memberId ?? '' });
      // An agent's "my last change" is its own, not the member's or another agent's.
      if (ctx.actor.agent?.tokenId) mine.andWhere({ token_id: ctx.actor.agent.tokenId });
      const latest = (await mine
        .whereNull('undone_by')
        // "Undo my last change" never means "leave the household": creating or joining one is
        // undone only when named explicitly.
        // nor "undo my undo": two "undo"s in a row undo two changes (redo names the entry).
        .whereNotIn('op', ['create_household', 'join_household', 'undo'])
        // nor the history `exhale demo` seeded in the member's name: nobody made it at the keyboard.
        .whereNot('channel', 'demo')
        .orderBy('seq', 'desc')
        .first()) as AuditRow | undefined;
      if (!latest) throw new OpError('not_found', 'errors.nothing_to_undo');
      entries = [latest];
    }
    entries.sort((a, b) => b.seq - a.seq);
    const summary = (entry: AuditRow) => renderSummary(ctx.actor.locale, entry);
    for (const entry of entries) {
      // An undo already undone is a change already back: name the change, not the undo.
      if (entry.undone_by !== null && entry.op === 'undo')
        throw new OpError('conflict', 'errors.already_redone', {
          summary: (await effectOf(ctx, entry)).changes.join('; '),
        });
      if (entry.undone_by !== null)
        throw new OpError('conflict', 'errors.already_undone', { summary: summary(entry) });
      const refusal = undoRefusal(ctx, entry);
      if (refusal) throw new OpError('forbidden', refusal, { summary: summary(entry) });
    }
    for (const entry of entries) {
      await ctx.tx.revert(changesOf(entry));
      await markUndone(ctx, entry.id, ctx.auditId);
    }
    const effects: Array<Awaited<ReturnType<typeof effectOf>>> = [];
    for (const entry of entries) effects.push(await effectOf(ctx, entry));
    return {
      undone: entries.map((e, i) => ({
        id: e.id,
        summary: summary(e),
        effect: effects[i]?.effect ?? 'undone',
        changes: effects[i]?.changes ?? [summary(e)],
      })),
      changes: ctx.tx.changes.length,
    };
  },
});

/**
 * What undoing an entry does in the end: undoing a change takes it back; undoing an undo brings
 * the change back (a redo); undoing that takes it back again. Followed down the chain of undos to
 * the changes themselves, which are named as undone ("Ana's language back to Spanish") or as made.
 */
async function effectOf(
  ctx: OpContext,
  entry: AuditRow,
): Promise<{ effect: 'undone' | 'redone'; changes: string[] }> {
  let level = [entry];
  let redone = false;
  for (let depth = 0; depth < 50 && level.every((e) => e.op === 'undo'); depth += 1) {
    const ids = level.flatMap((e) => JSON.parse(e.links ?? '[]') as string[]);
    if (ids.length === 0) break;
    level = await ctx.tx.from<AuditRow>('audit_entries').whereIn('id', ids).orderBy('seq', 'desc');
    redone = !redone;
  }
  const line = (e: AuditRow): string =>
    renderActivity(ctx.actor.locale, redone ? storedActivity(e) : undoneActivity(e));
  return { effect: redone ? 'redone' : 'undone', changes: level.map(line) };
}

interface LinkRow {
  id: string;
  op: string;
  links: string | null;
}

async function linked(ctx: OpContext, id: string): Promise<LinkRow | undefined> {
  return (await ctx.tx.from('audit_entries').where({ id }).first('id', 'op', 'links')) as
    LinkRow | undefined;
}

/**
 * Records that an entry is undone. Undoing an undo re-applies what that undo had undone, and so
 * on down the chain (redo of a redo), so the activity list always says what is in effect.
 */
async function markUndone(ctx: OpContext, id: string, by: string): Promise<void> {
  await ctx.tx.from('audit_entries').where({ id }).update({ undone_by: by });
  const row = await linked(ctx, id);
  if (row?.op !== 'undo') return;
  for (const target of JSON.parse(row.links ?? '[]') as string[]) await markApplied(ctx, target);
}

async function markApplied(ctx: OpContext, id: string): Promise<void> {
  await ctx.tx.from('audit_entries').where({ id }).update({ undone_by: null });
  const row = await linked(ctx, id);
  if (row?.op !== 'undo') return;
  for (const target of JSON.parse(row.links ?? '[]') as string[]) await markUndone(ctx, target, id);
}
