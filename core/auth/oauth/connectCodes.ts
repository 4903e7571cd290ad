import { type Actor, memberActor } from '../../kernel/actor.ts';
import type { Database } from '../../store/connection.ts';
import { redeemCode } from '../oneTimeCodes.ts';

/**
 * Connect codes: how a person who only has a chat proves who they are on the consent page.
 * `/connect` (the op `create_connect_code`) issues one for the member who asked: 8 characters of
 * the base-32 alphabet (40 bits), valid 10 minutes, used once, stored only as a hash (a
 * `one_time_codes` row of purpose `connect`). Shown as two groups of four in capitals; typed any
 * way (case, spaces and dashes do not matter).
 */
export const CONNECT_CODE_LENGTH = 8;
export const CONNECT_CODE_TTL_MS = 10 * 60_000;

/** The code as a person reads it: `K3X9-M2QP`. */
export function displayConnectCode(code: string): string {
  const upper = code.toUpperCase();
  return `${upper.slice(0, 4)}-${upper.slice(4)}`;
}

/** What a person typed, in the code's own form: lower case, without spaces or dashes. */
export function normalizeConnectCode(typed: string): string {
  return typed.toLowerCase().replace(/[\s-]/g, '');
}

interface MemberRow {
  id: string;
  household_id: string;
  role: string;
  language: string;
}

/**
 * The member a connect code stands for, redeeming it (once, across processes); null for a wrong,
 * used or expired code, or a member who has left. They act in person on the web channel.
 */
export async function redeemConnectCode(
  db: Database,
  typed: string,
  now: Date,
): Promise<Actor | null> {
  const result = await redeemCode(db, {
    code: normalizeConnectCode(typed),
    purpose: 'connect',
    length: CONNECT_CODE_LENGTH,
    now,
    then: async (trx, code) =>
      (await trx('members')
        .where({ id: code.memberId, household_id: code.householdId })
        .first('id', 'household_id', 'role', 'language')) as MemberRow | undefined,
  });
  if (!result.ok || !result.value) return null;
  return memberActor(result.value, 'web');
}
