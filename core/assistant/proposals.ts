import type { Knex } from 'knex';

import type { Channel } from '../kernel/actor.ts';
import { claimFlow, type FlowRow, releaseFlow } from '../store/repos/flows.ts';

/**
 * A prepared change: an op and its arguments, checked by a dry run, waiting for the member's tap.
 * Stored in `flows` (kind 'proposal') so any process can confirm it: it belongs to its member,
 * expires after 30 minutes and applies once. The card (title, lines) was written by Exhale from the
 * dry run; the outcome stays on the row so the assistant remembers what the member did.
 */
export interface ProposalPayload {
  op: string;
  args: Record<string, unknown>;
  title: string;
  lines: string[];
  destructive: boolean;
  channel: Channel;
  status: 'pending' | 'confirmed' | 'discarded' | 'failed';
  /** The audit entry of the applied change (for Undo). */
  audit_id: string | null;
  decided_at: string | null;
  /** Set when the member undid the applied change from its card. */
  undone_at: string | null;
  /** The dry run's changeFingerprint: Confirm applies exactly what the card shows, or nothing. */
  changes?: string;
}

export interface Proposal extends ProposalPayload {
  id: string;
  householdId: string;
  memberId: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

const KIND = 'proposal';

function fromRow(row: FlowRow): Proposal {
  const payload = JSON.parse(row.payload) as ProposalPayload;
  return {
    ...payload,
    id: row.id,
    householdId: row.household_id ?? '',
    memberId: row.member_id ?? '',
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
  };
}

export async function saveProposal(
  db: Knex,
  entry: {
    id: string;
    householdId: string;
    memberId: string;
    payload: ProposalPayload;
    now: Date;
    ttlMs: number;
  },
): Promise<Proposal> {
  const row: FlowRow = {
    id: entry.id,
    household_id: entry.householdId,
    member_id: entry.memberId,
    kind: KIND,
    payload: JSON.stringify(entry.payload),
    expires_at: new Date(entry.now.getTime() + entry.ttlMs).toISOString(),
    used_at: null,
    created_at: entry.now.toISOString(),
  };
  await db('flows').insert(row);
  return fromRow(row);
}

export async function loadProposal(db: Knex, id: string): Promise<Proposal | null> {
  const row = (await db('flows').where({ id, kind: KIND }).first()) as FlowRow | undefined;
  return row ? fromRow(row) : null;
}

/** Marks a proposal used; true only for the one caller (in any process) that got there first. */
export async function claimProposal(db: Knex, id: string, now: Date): Promise<boolean> {
  return claimFlow(db, { id, kind: KIND }, now, now);
}

/** Gives a claimed proposal back (its change failed, so it was not applied). */
export async function releaseProposal(db: Knex, id: string): Promise<void> {
  await releaseFlow(db, { id, kind: KIND });
}

/** Records what happened to a proposal. */
export async function settleProposal(
  db: Knex,
  proposal: Proposal,
  patch: Partial<ProposalPayload>,
): Promise<void> {
  const {
    id,
    householdId: _h,
    memberId: _m,
    createdAt: _c,
    expiresAt: _e,
    usedAt: _u,
    ...payload
  } = proposal;
  await db('flows')
    .where({ id, kind: KIND })
    .update({ payload: JSON.stringify({ ...payload, ...patch }) });
}

/** A member's recent proposals, newest first (for the assistant's memory). */
export async function recentProposals(
  db: Knex,
  memberId: string,
  since: Date,
  limit: number,
): Promise<Proposal[]> {
  const rows = (await db('flows')
    .where({ kind: KIND, member_id: memberId })
    .andWhere('created_at', '>=', since.toISOString())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)) as FlowRow[];
  return rows.map(fromRow);
}

/** Deletes proposals a day past their expiry (an applied one can be undone for a day). */
export async function purgeProposals(db: Knex, now: Date, keepMs: number): Promise<void> {
  await db('flows')
    .where({ kind: KIND })
    .andWhere('expires_at', '<', new Date(now.getTime() - keepMs).toISOString())
    .delete();
}
