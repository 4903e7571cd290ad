import type { Knex } from 'knex';

/**
 * The per-member pace: a burst of `burst` messages, then one every `intervalMs` (GCRA: one stored
 * instant per member, the "theoretical arrival time"). Kept in the database so every process
 * shares it; a lost race retries, so two processes never both spend the last slot.
 */
export async function takeSlot(
  db: Knex,
  member: { householdId: string; memberId: string },
  now: Date,
  limits: { burst: number; intervalMs: number },
): Promise<{ ok: true } | { ok: false; retryAfterMs: number }> {
  const tolerance = (limits.burst - 1) * limits.intervalMs;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const row = (await db('assistant_rate').where({ id: member.memberId }).first('tat')) as
      { tat: string } | undefined;
    const stored = row ? Date.parse(row.tat) : Number.NEGATIVE_INFINITY;
    const tat = Math.max(stored, now.getTime());
    if (tat - now.getTime() > tolerance)
      return { ok: false, retryAfterMs: tat - tolerance - now.getTime() };
    const next = new Date(tat + limits.intervalMs).toISOString();
    if (!row) {
      try {
        await db('assistant_rate').insert({
          id: member.memberId,
          household_id: member.householdId,
          tat: next,
        });
        return { ok: true };
      } catch {
        // Another process inserted the member's row first: read it and try again.
        continue;
      }
    }
    const updated = await db('assistant_rate')
      .where({ id: member.memberId, tat: row.tat })
      .update({ tat: next });
    if (Number(updated) === 1) return { ok: true };
  }
  return { ok: false, retryAfterMs: limits.intervalMs };
}
