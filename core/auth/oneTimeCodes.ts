import type { Knex } from 'knex';

import type { OpContext } from '../kernel/op.ts';
import { OpError } from '../errors/index.ts';
import type { Database } from '../store/connection.ts';
import { transactionWithRetry } from '../kernel/retry.ts';
import { hashSecret, isSecretShaped, secretFromSeed } from './secrets.ts';

/**
 * One-time codes: a secret a member is handed (in a link, on a screen) that proves, once and for a
 * short time, that whoever holds it acts for that member. Each code has a purpose, and is redeemed
 * only for it: `web_sign_in` (the Mini App's sign-in link) and `connect` (an agent connecting
 * through OAuth). Only the code's SHA-256 is stored.
 *
 * Issuing is part of an op (its row is written through `ctx.tx`: audited, undone with the op, and a
 * dry run writes nothing); redeeming is not (a person presenting a code is not yet an actor).
 */
export const CODE_PURPOSES = ['web_sign_in', 'connect'] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

export interface IssueOptions {
  purpose: CodePurpose;
  /** Characters of base-32 (5 bits each): 24 give 120 bits, for a code in a link. */
  length: number;
  ttlMs: number;
}

export interface IssuedCode {
  id: string;
  /** The code itself: shown this once. */
  code: string;
  expiresAt: string;
}

/** Issues a code for the acting member, in the op's transaction. */
export async function issueCode(ctx: OpContext, options: IssueOptions): Promise<IssuedCode> {
  if (!ctx.household || !ctx.actor.memberId) throw new OpError('forbidden', 'errors.not_a_member');
  // Random in production (two random ids), reproducible under a test id generator.
  const code = secretFromSeed(`${ctx.newId('otc')}:${ctx.newId('otc')}`, options.length);
  const id = ctx.newId('otc');
  const expiresAt = new Date(ctx.now.getTime() + options.ttlMs).toISOString();
  await ctx.tx.insert('one_time_codes', {
    id,
    purpose: options.purpose,
    code_hash: hashSecret(code),
    household_id: ctx.household.id,
    member_id: ctx.actor.memberId,
    created_at: ctx.now.toISOString(),
    expires_at: expiresAt,
    used_at: null,
  });
  return { id, code, expiresAt };
}

/** Whose code it was. */
export interface RedeemedCode {
  id: string;
  purpose: CodePurpose;
  householdId: string;
  memberId: string;
}

/** Why a code let no one in: never issued (or mistyped), already used, or past its time. */
export type RedeemRefusal = 'unknown' | 'used' | 'expired';

export type RedeemResult<T> =
  { ok: true; code: RedeemedCode; value: T } | { ok: false; reason: RedeemRefusal };

export interface RedeemOptions<T> {
  code: string;
  purpose: CodePurpose;
  /** The code's length when issued (a code of another shape is unknown without a query). */
  length: number;
  now: Date;
  /**
   * What redeeming gives (a web session), written in the same transaction as the claim: the code
   * is spent only if this commits too, so a failure here leaves it usable.
   */
  then: (trx: Knex.Transaction, code: RedeemedCode) => Promise<T>;
}

interface CodeRow {
  id: string;
  purpose: string;
  household_id: string;
  member_id: string;
  expires_at: string;
  used_at: string | null;
}

/**
 * Redeems a code once. The claim is one conditional `UPDATE` (only while unused and unexpired), so
 * of two redeems at once, in one process or two, on SQLite or PostgreSQL, exactly one is let in:
 * PostgreSQL makes the second wait on the row and re-check the condition, SQLite runs write
 * transactions one at a time. The code's member must still belong to its household.
 */
export async function redeemCode<T>(
  db: Database,
  options: RedeemOptions<T>,
): Promise<RedeemResult<T>> {
  if (!isSecretShaped(options.code, options.length)) return { ok: false, reason: 'unknown' };
  const hash = hashSecret(options.code);
  const now = options.now.toISOString();
  return transactionWithRetry(db, async (trx): Promise<RedeemResult<T>> => {
    const claimed = await trx('one_time_codes')
      .where({ code_hash: hash, purpose: options.purpose })
      .whereNull('used_at')
      .andWhere('expires_at', '>', now)
      .whereExists(function memberStillThere() {
        this.select('id')
          .from('members')
          .whereRaw('members.id = one_time_codes.member_id')
          .andWhereRaw('members.household_id = one_time_codes.household_id');
      })
      .update({ used_at: now });
    const row = (await trx('one_time_codes')
      .where({ code_hash: hash, purpose: options.purpose })
      .first('id', 'purpose', 'household_id', 'member_id', 'expires_at', 'used_at')) as
      CodeRow | undefined;
    if (!row) return { ok: false, reason: 'unknown' };
    if (claimed !== 1) {
      if (row.used_at !== null) return { ok: false, reason: 'used' };
      if (row.expires_at <= now) return { ok: false, reason: 'expired' };
      return { ok: false, reason: 'unknown' };
    }
    const code: RedeemedCode = {
      id: row.id,
      purpose: options.purpose,
      householdId: row.household_id,
      memberId: row.member_id,
    };
    return { ok: true, code, value: await options.then(trx, code) };
  });
}
