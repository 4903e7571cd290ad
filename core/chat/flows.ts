import { createHash } from 'node:crypto';

import { z } from 'zod';

import { PENDING_FLOWS } from '../pending/store.ts';
import { cachedSharedRead, changedShared, type Freshness } from '../kernel/readCache.ts';
import type { Database } from '../store/connection.ts';
import { defineFlow, purgeFlows } from '../store/repos/flows.ts';
import { type Action, ActionSchema, AddDraftSchema } from './actions.ts';
import { SUBSCRIPTION_AWAITING } from './subscriptionActions.ts';

/**
 * Button presses and pending questions live in the `flows` table, never only in memory, so any
 * process can answer a press and a restart loses nothing. One row per message holds all its
 * buttons; a button's payload is `<row id>.<index>` (about 23 bytes, under Telegram's 64).
 */

/** Buttons stay usable for 30 days (Undo on an old card still works within that time). */
export const BUTTON_TTL_MS = 30 * 86_400_000;
/** A question the engine asked ("send the price") waits 15 minutes for its answer. */
export const AWAIT_TTL_MS = 15 * 60_000;

/** Who may press a message's buttons: the member it was written for, or (before they have one) the person. */
export interface Owner {
  householdId: string | null;
  memberId: string | null;
  /** `<channel>:<external id>` of the person, checked when there is no member yet. */
  who: string | null;
}

/** One message's buttons (kind `button`): their actions, and the person they were written for. */
const BUTTONS = defineFlow({
  kind: 'button',
  ttlMs: BUTTON_TTL_MS,
  payload: z.object({ actions: z.array(ActionSchema), who: z.string().nullable() }),
});

export async function saveButtons(
  db: Database,
  owner: Owner,
  actions: Action[],
  now: Date,
  id: string,
): Promise<string> {
  await BUTTONS.save(db.knex, {
    id,
    householdId: owner.householdId,
    memberId: owner.memberId,
    payload: { actions, who: owner.who },
    now,
  });
  return id;
}

export type Pressed =
  | { ok: true; flowId: string; action: Action; owner: Owner; used: boolean }
  | { ok: false; reason: 'invalid' | 'expired' };

const PAYLOAD = /^([a-z]+_[0-9a-z]+)\.(\d{1,2})$/;

/** Resolves a button payload to its action, or says why it cannot be used. */
export async function loadPress(db: Database, payload: string, now: Date): Promise<Pressed> {
  const match = PAYLOAD.exec(payload);
  if (!match) return { ok: false, reason: 'invalid' };
  const [, flowId = '', index = '0'] = match;
  const row = await BUTTONS.load(db.knex, flowId);
  if (!row) return { ok: false, reason: 'expired' };
  if (row.expiresAt <= now.toISOString()) return { ok: false, reason: 'expired' };
  const action = row.payload.actions[Number(index)];
  if (!action) return { ok: false, reason: 'invalid' };
  return {
    ok: true,
    flowId,
    action,
    owner: { householdId: row.householdId, memberId: row.memberId, who: row.payload.who },
    used: row.usedAt !== null,
  };
}

/** Marks a message's buttons used; true for the one press that got there first (any process). */
export async function claimButtons(db: Database, flowId: string, now: Date): Promise<boolean> {
  return BUTTONS.claim(db.knex, flowId, now);
}

/** Gives a message's buttons back: the action a press claimed them for did not happen. */
export async function releaseButtons(db: Database, flowId: string): Promise<void> {
  await BUTTONS.release(db.knex, flowId);
}

/** What the engine waits for in a conversation's next text message. */
const AwaitingSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('add_line') }),
  z.object({ t: z.literal('add_amount'), draft: AddDraftSchema.omit({ amount: true }) }),
  z.object({ t: z.literal('onboard_currency') }),
  z.object({ t: z.literal('onboard_tz'), currency: z.string() }),
  /** Organizing: a name for a new record or for `id`, or the subscription to tag with `id`. */
  z.object({
    t: z.literal('org_answer'),
    w: z.enum(['category', 'tag', 'method']),
    q: z.enum(['create', 'rename', 'tag', 'untag']),
    id: z.string().nullable(),
  }),
  z.object({ t: z.literal('rate_value'), currency: z.string() }),
  /** /import is waiting for a file; a text instead gets the question again. */
  z.object({ t: z.literal('import_file') }),
  /** The assistant set-up's questions, each carrying what was answered before it. */
  /** `local`: Ollama, LM Studio… (no key); otherwise an OpenAI-compatible service. */
  z.object({ t: z.literal('as_url'), local: z.boolean() }),
  z.object({
    t: z.literal('as_model'),
    provider: z.enum(['anthropic', 'openai']),
    base_url: z.string().nullable(),
    /** A local server needs no key: the set-up ends after the model. */
    local: z.boolean(),
  }),
  z.object({
    t: z.literal('as_key'),
    provider: z.enum(['anthropic', 'openai']),
    base_url: z.string().nullable(),
    model: z.string(),
  }),
  ...SUBSCRIPTION_AWAITING,
]);
export type Awaiting = z.infer<typeof AwaitingSchema>;

/** A conversation's open question (kind `await`): one row per conversation, replaced by the next. */
const AWAIT = defineFlow({ kind: 'await', ttlMs: AWAIT_TTL_MS, payload: AwaitingSchema });

function awaitId(conversationKey: string): string {
  return `aw_${createHash('sha256').update(conversationKey).digest('hex').slice(0, 32)}`;
}

/** Remembers what the next text in this conversation answers, replacing an earlier question. */
export async function setAwaiting(
  db: Database,
  conversationKey: string,
  owner: Owner,
  awaiting: Awaiting,
  now: Date,
): Promise<void> {
  await AWAIT.replace(db.knex, {
    id: awaitId(conversationKey),
    householdId: owner.householdId,
    memberId: owner.memberId,
    payload: awaiting,
    now,
  });
  // "No question here" may be known for this conversation (clearAwaiting): it is not true now.
  changedShared(db.knex);
}

/** Takes (and forgets) the pending question of a conversation, if one is still open. */
export async function takeAwaiting(
  db: Database,
  conversationKey: string,
  now: Date,
): Promise<Awaiting | null> {
  const id = awaitId(conversationKey);
  const row = await AWAIT.load(db.knex, id);
  if (!row) {
    // A row that no longer parses is gone: it must not keep the conversation waiting.
    await AWAIT.remove(db.knex, id);
    return null;
  }
  // Only the one message that deletes this very question answers it (any process).
  const taken = await AWAIT.remove(db.knex, id, { createdAt: row.createdAt });
  if (!taken || row.expiresAt <= now.toISOString()) return null;
  return row.payload;
}

/** The open question of a conversation without taking it (a sent file checks for /import's). */
export async function loadAwaiting(
  db: Database,
  conversationKey: string,
  now: Date,
): Promise<Awaiting | null> {
  const row = await AWAIT.load(db.knex, awaitId(conversationKey));
  return row && row.expiresAt > now.toISOString() ? row.payload : null;
}

/** Whether the next text in this conversation answers an open question (a price, a time zone…). */
export async function isAwaiting(
  db: Database,
  conversationKey: string,
  now: Date,
): Promise<boolean> {
  return AWAIT.isOpen(db.knex, awaitId(conversationKey), now);
}

/**
 * Forgets an open question (a command was sent instead of an answer). Reads first: most commands
 * have none, and that a conversation has none is kept in the read cache where a question asked
 * since is seen at once (SQLite: this process's `setAwaiting` drops it, another process's commit
 * moves data_version; `fresh`, the event's check). On PostgreSQL it is read every time.
 */
export async function clearAwaiting(
  db: Database,
  conversationKey: string,
  fresh?: Freshness,
): Promise<void> {
  const id = awaitId(conversationKey);
  // Open since the epoch: any row, expired or not, is forgotten.
  const open = await cachedSharedRead(
    db.knex,
    `await:${id}`,
    () => AWAIT.isOpen(db.knex, id, new Date(0)),
    {
      strict: true,
      keep: (exists) => !exists,
      fresh,
    },
  );
  if (open) await AWAIT.remove(db.knex, id);
}

/**
 * Deletes expired rows of every kind (buttons, questions, pending changes once their Undo window
 * has passed too); returns how many. The scheduler's one purge.
 */
export async function purgeExpiredFlows(db: Database, now: Date): Promise<number> {
  return purgeFlows(db.knex, now, PENDING_FLOWS);
}
