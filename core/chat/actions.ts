import { z } from 'zod';

/** A subscription being put together by `/add` before it is created. */
export const AddDraftSchema = z.object({
  name: z.string(),
  amount: z.string(),
  currency: z.string().nullable(),
  cycle: z.enum(['day', 'week', 'month', 'year']).nullable(),
  /** Units per cycle (quarterly: 3 months); absent means 1. */
  every: z.number().optional(),
  /** The first charge date (YYYY-MM-DD), or null for "today". */
  date: z.string().nullable(),
});
export type AddDraft = z.infer<typeof AddDraftSchema>;

/**
 * What a button does, stored as JSON in a `flows` row and replayed by whichever process receives
 * the press. Keep them small and self-contained: everything a press needs is in here. The schema
 * reads a stored row back: a row written by older code that no longer parses is an expired button.
 */
export const ActionSchema = z.discriminatedUnion('t', [
  /** `page`: set when the button sits on an /activity page (its cursor), which is then redrawn. */
  z.object({ t: z.literal('undo'), audit: z.string(), page: z.string().nullable().optional() }),
  z.object({ t: z.literal('subs_page'), offset: z.number(), text: z.string().nullable() }),
  z.object({
    t: z.literal('totals'),
    group_by: z.enum(['none', 'category', 'payment_method', 'member', 'tag']),
  }),
  z.object({
    t: z.literal('token'),
    scope: z.enum(['read', 'write', 'trusted']),
    name: z.string(),
  }),
  z.object({ t: z.literal('activity_page'), before: z.string().nullable() }),
  z.object({ t: z.literal('onboard_currency'), currency: z.string() }),
  z.object({ t: z.literal('onboard_tz'), currency: z.string(), tz: z.string() }),
  z.object({
    t: z.literal('onboard_other'),
    step: z.enum(['currency', 'tz']),
    currency: z.string().nullable(),
  }),
  z.object({ t: z.literal('link_group'), chatId: z.string(), title: z.string().nullable() }),
  z.object({ t: z.literal('add_set'), draft: AddDraftSchema }),
  z.object({ t: z.literal('add_confirm'), draft: AddDraftSchema }),
  z.object({ t: z.literal('cancel') }),
  z.object({ t: z.literal('paid'), sub: z.string(), due: z.string() }),
  z.object({ t: z.literal('skip'), sub: z.string(), due: z.string() }),
  z.object({ t: z.literal('set_language'), language: z.enum(['en', 'es']) }),
  z.object({ t: z.literal('set_time'), time: z.string() }),
  z.object({ t: z.literal('set_offsets'), offsets: z.array(z.number()) }),
  z.object({ t: z.literal('command'), command: z.string() }),
  /** The assistant's cards: `p` is the pending change's id (core/pending). */
  z.object({ t: z.literal('ai_confirm'), p: z.string() }),
  z.object({ t: z.literal('ai_discard'), p: z.string() }),
  z.object({ t: z.literal('ai_undo'), p: z.string() }),
  /** A statement review (core/chat/statementFlow.ts): `s` is its row, never the candidates. */
  z.object({ t: z.literal('stmt_toggle'), s: z.string(), c: z.string() }),
  z.object({ t: z.literal('stmt_page'), s: z.string(), page: z.int().min(0) }),
  z.object({ t: z.literal('stmt_import'), s: z.string() }),
  /** `p` is the pending change the import was applied through (core/pending). */
  z.object({ t: z.literal('stmt_undo'), p: z.string() }),
  /** The "app connected" message's Disconnect: `app` is the grant (core/chat/features/connect.ts). */
  z.object({ t: z.literal('disconnect'), app: z.string() }),
]);
export type Action = z.infer<typeof ActionSchema>;

export type ActionKind = Action['t'];

/**
 * Actions that must run at most once per message (a second press is refused). Pressing one uses
 * up every button of its message: a preview that was added, cancelled or redrawn with new buttons
 * does nothing when an old copy of its keyboard is pressed.
 */
const ONCE: ReadonlySet<ActionKind> = new Set<ActionKind>([
  'onboard_tz',
  'add_confirm',
  'add_set',
  'cancel',
  'link_group',
  'paid',
  'skip',
  'token',
  'ai_confirm',
  'ai_discard',
  'ai_undo',
  'stmt_import',
  'stmt_undo',
  'disconnect',
]);

export function runsOnce(action: Action): boolean {
  return ONCE.has(action.t);
}
