import { z } from 'zod';

/**
 * The buttons of a subscription's card and the commands that manage one from chat
 * (`features/subscriptionCard.ts`, `subscriptionEdit.ts`, `subscriptionCommands.ts`). Stored as
 * JSON in `flows` rows like every action: `s` is always the subscription's id.
 */

/** The ops a subscription card's buttons run, each through the chat's pending-change service. */
export const SUB_OPS = [
  'update_subscription',
  'pause_subscription',
  'resume_subscription',
  'cancel_subscription',
  'delete_subscription',
  'mark_charge_paid',
  'skip_charge',
] as const;
export type SubOp = (typeof SUB_OPS)[number];

/** What Edit can change, one field at a time, each read with the same parsers as /add. */
export const EDIT_FIELDS = [
  'name',
  'price',
  'cycle',
  'date',
  'trial',
  'category',
  'method',
  'tags',
  'notes',
  'shares',
  'private',
] as const;
export type EditField = (typeof EDIT_FIELDS)[number];

/** The commands that take a subscription (a pick list answers with one of these). */
export const SUB_COMMANDS = [
  'card',
  'edit',
  'paid',
  'skip',
  'pause',
  'resume',
  'cancel',
  'delete',
] as const;
export type SubCommand = (typeof SUB_COMMANDS)[number];

export const SUBSCRIPTION_ACTIONS = [
  /** Shows the subscription's card (from /list, /upcoming, a reminder, an Added card). */
  z.object({ t: z.literal('sub_card'), s: z.string() }),
  /** Runs one of the card's ops with these arguments: previewed first when it moves money or deletes. */
  z.object({
    t: z.literal('sub_run'),
    op: z.enum(SUB_OPS),
    args: z.record(z.string(), z.unknown()),
  }),
  /** A preview's Confirm and Discard: `p` is the pending change (core/pending). */
  z.object({ t: z.literal('sub_confirm'), p: z.string() }),
  z.object({ t: z.literal('sub_discard'), p: z.string() }),
  /** Mark paid or Skip: choose which charge (the next one first). */
  z.object({
    t: z.literal('sub_charges'),
    s: z.string(),
    op: z.enum(['mark_charge_paid', 'skip_charge']),
  }),
  /** "Another amount": asks what a variable bill actually charged on `due`. */
  z.object({ t: z.literal('sub_amount'), s: z.string(), due: z.string() }),
  /** Edit: which field; then that field's question. */
  z.object({ t: z.literal('sub_edit'), s: z.string() }),
  z.object({ t: z.literal('sub_field'), s: z.string(), field: z.enum(EDIT_FIELDS) }),
  /** A pick list's choice: runs `cmd` on the chosen subscription, with the rest of the typed line. */
  z.object({
    t: z.literal('sub_pick'),
    cmd: z.enum(SUB_COMMANDS),
    s: z.string(),
    rest: z.string().optional(),
  }),
] as const;

/** The questions a subscription's Edit waits a typed answer to (`flows` rows of kind await). */
export const SUBSCRIPTION_AWAITING = [
  z.object({ t: z.literal('sub_value'), s: z.string(), field: z.enum(EDIT_FIELDS) }),
  z.object({ t: z.literal('sub_paid_amount'), s: z.string(), due: z.string() }),
] as const;
