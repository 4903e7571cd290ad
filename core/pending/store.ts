import { z } from 'zod';

import { CHANNELS } from '../kernel/actor.ts';
import type { Surface } from '../kernel/op.ts';
import { defineFlow, type Flow, type FlowKind } from '../store/repos/flows.ts';
import { CardSchema } from './card.ts';

/**
 * How a pending change is stored: one `flows` row, of the kind of the surface that prepared it
 * (`pending_mcp`, `pending_assistant`…), so a change can only be found, confirmed or undone on its
 * own surface. The row's household and member columns bind it to the member; `token_id` to the
 * agent's token (null for everyone else). `used_at` is set once, by the decision (confirmed,
 * discarded, spent): that claim is what makes a change apply at most once, in any process.
 */
export const PendingPayloadSchema = z.object({
  op: z.string(),
  args: z.record(z.string(), z.unknown()),
  /** The agent token the change was prepared for; null when no token asked. */
  token_id: z.string().nullable(),
  /** The channel the member was on (Telegram, terminal…), for the record. */
  channel: z.enum(CHANNELS),
  /** The dry run's changeFingerprint: Confirm applies exactly this, or nothing. */
  changes: z.string(),
  card: CardSchema,
  /** `failed`: the records changed since the preview, so it can never be applied as shown. */
  status: z.enum(['pending', 'confirmed', 'discarded', 'failed']),
  /** The audit entry of the applied change (for Undo); null until then, or when nothing changed. */
  audit_id: z.string().nullable(),
  decided_at: z.string().nullable(),
  /** Set when the applied change was undone through the service. */
  undone_at: z.string().nullable(),
});
export type PendingPayload = z.infer<typeof PendingPayloadSchema>;

/** A pending change as read back: its row and its parsed payload. */
export type PendingChange = Flow<PendingPayload>;

/** The longest Undo window a pending change can have: its row is kept that long past its expiry. */
export const PENDING_KEEP_MS = 24 * 3_600_000;

/** The default time a pending change can be confirmed (each surface sets its own). */
const DEFAULT_TTL_MS = 10 * 60_000;

const flowOf = (surface: Surface): FlowKind<PendingPayload> =>
  defineFlow({
    kind: `pending_${surface}`,
    ttlMs: DEFAULT_TTL_MS,
    keepMs: PENDING_KEEP_MS,
    payload: PendingPayloadSchema,
  });

/** Spelled out so that a new surface fails to compile until it has its kind. */
const FLOWS: Record<Surface, FlowKind<PendingPayload>> = {
  mcp: flowOf('mcp'),
  assistant: flowOf('assistant'),
  web: flowOf('web'),
  chat: flowOf('chat'),
  cli: flowOf('cli'),
};

/** The flows kind holding one surface's pending changes. */
export function pendingFlow(surface: Surface): FlowKind<PendingPayload> {
  return FLOWS[surface];
}

/** Every surface's pending-change kind (the purge keeps their rows for the Undo window). */
export const PENDING_FLOWS: ReadonlyArray<FlowKind<PendingPayload>> = Object.values(FLOWS);
