import { z } from 'zod';

import { SUBSCRIPTION_ACTIONS } from './subscriptionActions.ts';

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
  /** A free trial's last day (YYYY-MM-DD): the subscription starts as a trial. */
  trial: z.string().nullable().optional(),
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
  /** The answer to "which currency is this $ statement in?": `c` one of the review's choices. */
  z.object({ t: z.literal('stmt_currency'), s: z.string(), c: z.string() }),
  /** `p` is the pending change the import was applied through (core/pending). */
  z.object({ t: z.literal('stmt_undo'), p: z.string() }),
  /** Reconciling a read statement (features/reconcile.ts): `s` its review row, `r` the reconcile row. */
  z.object({ t: z.literal('rec_start'), s: z.string() }),
  z.object({ t: z.literal('rec_mark'), r: z.string() }),
  z.object({ t: z.literal('rec_undo'), p: z.string() }),
  /** Organizing (features/organize.ts): `w` is the kind of record, `id` its id. */
  z.object({ t: z.literal('org_list'), w: z.enum(['category', 'tag', 'method']) }),
  z.object({ t: z.literal('org_item'), w: z.enum(['category', 'tag', 'method']), id: z.string() }),
  z.object({
    t: z.literal('org_ask'),
    w: z.enum(['category', 'tag', 'method']),
    /** What the next text is: a new record's name, a new name for `id`, a subscription to tag. */
    q: z.enum(['create', 'rename', 'tag', 'untag']),
    id: z.string().nullable(),
  }),
  z.object({
    t: z.literal('org_delete'),
    w: z.enum(['category', 'tag', 'method']),
    id: z.string(),
  }),
  z.object({ t: z.literal('org_merge'), id: z.string() }),
  z.object({ t: z.literal('org_merge_into'), id: z.string(), into: z.string() }),
  z.object({ t: z.literal('org_tag'), tag: z.string(), sub: z.string(), on: z.boolean() }),
  /** A change previewed from chat through the pending-change service (features/pendingCard.ts). */
  z.object({ t: z.literal('pc_confirm'), p: z.string() }),
  z.object({ t: z.literal('pc_discard'), p: z.string() }),
  z.object({ t: z.literal('pc_undo'), p: z.string() }),
  /** /rates: set the rate of a currency (the next text is the rate). */
  z.object({ t: z.literal('rate_ask'), currency: z.string() }),
  /** /assistant: the owner's set-up (features/assistantSetup.ts). */
  z.object({ t: z.literal('as_provider'), provider: z.enum(['anthropic', 'openai', 'local']) }),
  z.object({ t: z.literal('as_test') }),
  z.object({ t: z.literal('as_off') }),
  /** /members and /tokens (features/household.ts): preview removing a member, revoking a token. */
  z.object({ t: z.literal('hh_remove'), id: z.string() }),
  z.object({ t: z.literal('hh_revoke'), id: z.string() }),
  /** "You already have Netflix": add this second one anyway. */
  z.object({ t: z.literal('add_anyway'), draft: AddDraftSchema }),
  ...SUBSCRIPTION_ACTIONS,
  /** The "app connected" message's Disconnect: `app` is the grant (core/chat/features/connect.ts). */
  z.object({ t: z.literal('disconnect'), app: z.string() }),
  /** /apps (features/connect.ts): preview disconnecting the connected app (grant) `id`. */
  z.object({ t: z.literal('app_disconnect'), id: z.string() }),
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
  'stmt_currency',
  'stmt_undo',
  'rec_mark',
  'rec_undo',
  'org_tag',
  'pc_confirm',
  'pc_discard',
  'pc_undo',
  'as_off',
  'sub_confirm',
  'sub_discard',
  'add_anyway',
  'disconnect',
]);

export function runsOnce(action: Action): boolean {
  return ONCE.has(action.t);
}
