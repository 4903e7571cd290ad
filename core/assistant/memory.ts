import type { Knex } from 'knex';

import type { PendingChange, PendingChanges } from '../pending/index.ts';
import { neutralText } from './guard.ts';
import type { Message } from './model.ts';

/**
 * What the assistant remembers of a member's conversation, all in the database with an expiry:
 * the last turns (question and answer text only; no reasoning, no tool traffic), what the member
 * did with each proposal, and the proposals still waiting for a tap.
 */
export interface Memory {
  turns: Array<{ question: string; answer: string }>;
  proposals: PendingChange[];
}

interface TurnRow {
  question: string;
  answer: string;
}

export async function loadMemory(
  db: Knex,
  proposals: Pick<PendingChanges, 'recent'>,
  memberId: string,
  now: Date,
  limits: { turns: number; ttlMs: number },
): Promise<Memory> {
  const rows = (await db('assistant_turns')
    .where({ member_id: memberId })
    .andWhere('expires_at', '>', now.toISOString())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limits.turns)
    .select('question', 'answer')) as TurnRow[];
  const recent = await proposals.recent(memberId, new Date(now.getTime() - limits.ttlMs), 10);
  return { turns: rows.reverse(), proposals: recent };
}

export async function rememberTurn(
  db: Knex,
  turn: {
    id: string;
    householdId: string;
    memberId: string;
    question: string;
    answer: string;
    now: Date;
    ttlMs: number;
  },
): Promise<void> {
  await db('assistant_turns').insert({
    id: turn.id,
    household_id: turn.householdId,
    member_id: turn.memberId,
    question: turn.question,
    answer: turn.answer,
    created_at: turn.now.toISOString(),
    expires_at: new Date(turn.now.getTime() + turn.ttlMs).toISOString(),
  });
  await db('assistant_turns').where('expires_at', '<=', turn.now.toISOString()).delete();
}

/**
 * The remembered turns as plain messages before the new question. An answer carries the titles
 * of its cards ("[Change Netflix?]"), which name records: data, so it is replayed through
 * neutralText like every data text the model reads. The question is the member's own words.
 */
export function memoryMessages(memory: Memory): Message[] {
  return memory.turns.flatMap((turn) => [
    { role: 'user' as const, parts: [{ type: 'text' as const, text: turn.question }] },
    {
      role: 'assistant' as const,
      parts: [{ type: 'text' as const, text: neutralText(turn.answer) || '…' }],
    },
  ]);
}

/** The proposals as data: what was prepared and what the member did (or that it still waits). */
export function proposalFacts(memory: Memory, now: Date): Array<Record<string, string>> {
  return memory.proposals.map(({ id, expiresAt, payload }) => ({
    proposal: id,
    card: payload.card.title,
    status:
      payload.status === 'pending' && expiresAt <= now.toISOString()
        ? 'expired'
        : payload.undone_at
          ? 'undone'
          : payload.status === 'pending'
            ? 'waiting for the member'
            : payload.status,
  }));
}
