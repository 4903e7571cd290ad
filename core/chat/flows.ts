import { createHash } from 'node:crypto';

import type { Database } from '../store/connection.ts';
import { claimFlow, type FlowRow } from '../store/repos/flows.ts';
import type { Action, AddDraft } from './actions.ts';

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

interface ButtonsPayload {
  actions: Action[];
  who: string | null;
}

export async function saveButtons(
  db: Database,
  owner: Owner,
  actions: Action[],
  now: Date,
  id: string,
): Promise<string> {
  const payload: ButtonsPayload = { actions, who: owner.who };
  await db.knex('flows').insert({
    id,
    household_id: owner.householdId,
    member_id: owner.memberId,
    kind: 'button',
    payload: JSON.stringify(payload),
    expires_at: new Date(now.getTime() + BUTTON_TTL_MS).toISOString(),
    used_at: null,
    created_at: now.toISOString(),
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
  const row = (await db.knex('flows').where({ id: flowId, kind: 'button' }).first()) as
    FlowRow | undefined;
  if (!row) return { ok: false, reason: 'expired' };
  if (row.expires_at <= now.toISOString()) return { ok: false, reason: 'expired' };
  const parsed = JSON.parse(row.payload) as ButtonsPayload;
  const action = parsed.actions[Number(index)];
  if (!action) return { ok: false, reason: 'invalid' };
  return {
    ok: true,
    flowId,
    action,
    owner: { householdId: row.household_id, memberId: row.member_id, who: parsed.who },
    used: row.used_at !== null,
  };
}

/** Marks a message's buttons used; true for the one press that got there first (any process). */
export async function claimButtons(db: Database, flowId: string, now: Date): Promise<boolean> {
  return claimFlow(db.knex, { id: flowId, kind: 'button' }, now);
}

/** What the engine waits for in a conversation's next text message. */
export type Awaiting =
  | { t: 'add_line' }
  | { t: 'add_amount'; draft: Omit<AddDraft, 'amount'> }
  | { t: 'onboard_currency' }
  | { t: 'onboard_tz'; currency: string };

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
  const id = awaitId(conversationKey);
  await db.knex.transaction(async (trx) => {
    await trx('flows').where({ id }).delete();
    await trx('flows').insert({
      id,
      household_id: owner.householdId,
      member_id: owner.memberId,
      kind: 'await',
      payload: JSON.stringify(awaiting),
      expires_at: new Date(now.getTime() + AWAIT_TTL_MS).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    });
  });
}

/** Takes (and forgets) the pending question of a conversation, if one is still open. */
export async function takeAwaiting(
  db: Database,
  conversationKey: string,
  now: Date,
): Promise<Awaiting | null> {
  const id = awaitId(conversationKey);
  const row = (await db.knex('flows').where({ id, kind: 'await' }).first()) as FlowRow | undefined;
  if (!row) return null;
  const deleted = await db.knex('flows').where({ id, created_at: row.created_at }).delete();
  if (Number(deleted) !== 1 || row.expires_at <= now.toISOString()) return null;
  return JSON.parse(row.payload) as Awaiting;
}

/** Whether the next text in this conversation answers an open question (a price, a time zone…). */
export async function isAwaiting(
  db: Database,
  conversationKey: string,
  now: Date,
): Promise<boolean> {
  const row = (await db
    .knex('flows')
    .where({ id: awaitId(conversationKey), kind: 'await' })
    .first('expires_at')) as { expires_at: string } | undefined;
  return row !== undefined && row.expires_at > now.toISOString();
}

/** Forgets an open question (a command was sent instead of an answer). Reads first: most commands have none. */
export async function clearAwaiting(db: Database, conversationKey: string): Promise<void> {
  const id = awaitId(conversationKey);
  const open = (await db.knex('flows').where({ id }).first('id')) as { id: string } | undefined;
  if (open) await db.knex('flows').where({ id }).delete();
}

/** Deletes expired button and question rows; returns how many. */
export async function purgeExpiredFlows(db: Database, now: Date): Promise<number> {
  const deleted = await db
    .knex('flows')
    .whereIn('kind', ['button', 'await'])
    .andWhere('expires_at', '<=', now.toISOString())
    .delete();
  return Number(deleted);
}
