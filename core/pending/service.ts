import { isOpError, OpError } from '../errors/index.ts';
import type { Actor } from '../kernel/actor.ts';
import type { Core, InvokeResult } from '../kernel/core.ts';
import { type AnyOp, isWrite, type Surface } from '../kernel/op.ts';
import { changeFingerprint } from '../kernel/preview.ts';
import { offers } from '../kernel/surface.ts';
import { undo as undoOp } from '../ops/activity/undo.ts';
import type { Change } from '../store/tracked.ts';
import { deletedRecordName } from '../store/repos/audit.ts';
import { type Card, previewCard } from './card.ts';
import { PENDING_KEEP_MS, type PendingChange, type PendingPayload, pendingFlow } from './store.ts';

/**
 * Pending changes: "models propose, people confirm", once, for every surface.
 *
 * `prepare` dry-runs a write, has Exhale write its card and stores it with the dry run's
 * fingerprint, bound to the member's household, the member, the surface and (for an agent) its
 * token. `confirm` applies it exactly as previewed (`expectChanges`), at most once from any process:
 * the claim is made inside the change's own transaction (`beforeCommit`), so the change and "it was
 * applied" commit together or not at all, and a failed apply leaves it confirmable. When the records
 * moved since the preview, it is spent: only a new preview can be confirmed. `discard` drops it;
 * it expires on its own after the surface's time; `undo` takes back what it applied, within the
 * Undo window.
 */

/** The sentence for each refusal; each surface may keep its own wording. */
export interface Refusals {
  /** Unknown, another member's, another token's, or a row that no longer parses. */
  not_found: string;
  /** Already confirmed or discarded. */
  used: string;
  /** Spent: the records changed since its preview. */
  spent: string;
  expired: string;
  /** Undo of a change that was never applied. */
  not_applied: string;
  /** Undo after the window. */
  undo_expired: string;
}

const DEFAULT_REFUSALS: Refusals = {
  not_found: 'pending.not_found',
  used: 'pending.used',
  spent: 'pending.spent',
  expired: 'pending.expired',
  not_applied: 'pending.not_applied',
  undo_expired: 'pending.undo_expired',
};

export interface PendingOptions {
  surface: Surface;
  /** How long a prepared change can be confirmed. */
  ttlMs: number;
  /** How long an applied change can be undone through the service (at most a day). */
  undoWindowMs?: number;
  refusals?: Partial<Refusals>;
  /** The service's clock; the core's by default. */
  clock?: () => Date;
  /** The prefix of the ids it hands out (`cfm` on MCP); `pnd` by default. */
  idPrefix?: string;
  /**
   * How a change's arguments are kept in its row, when not as they are: `keep` gives what is
   * stored (a reference in place of a large document kept elsewhere, so it is stored once) and
   * `restore` the arguments again at confirm, or throws the refusal when what it refers to is gone.
   */
  args?: {
    keep(args: Record<string, unknown>): Record<string, unknown>;
    restore(kept: Record<string, unknown>, change: PendingChange): Promise<Record<string, unknown>>;
  };
}

/** What a dry run showed: the card, the fingerprint, and the run's own result (nothing stored). */
export interface Preview {
  op: AnyOp;
  args: Record<string, unknown>;
  card: Card;
  fingerprint: string;
  /** The dry run's output and change set. */
  output: unknown;
  changes: Change[];
}

/** A confirmed change: the kernel's result, and until when Undo works (null when nothing changed). */
export interface Applied {
  change: PendingChange;
  op: AnyOp;
  result: InvokeResult;
  undoUntil: string | null;
}

export interface PendingChanges {
  readonly surface: Surface;
  /** Dry-runs a write and writes its card; stores nothing. */
  preview(actor: Actor, op: AnyOp, args: unknown): Promise<Preview>;
  /** Stores a preview as a pending change of this actor on this surface. */
  store(actor: Actor, preview: Preview): Promise<PendingChange>;
  /** `preview` then `store`. */
  prepare(
    actor: Actor,
    op: AnyOp,
    args: unknown,
  ): Promise<{ change: PendingChange; preview: Preview }>;
  /** The change if it is bound to this actor on this surface (in whatever state), else not_found. */
  get(actor: Actor, id: string): Promise<PendingChange>;
  /** The change if this actor could confirm it now; otherwise the refusal saying why not. */
  open(actor: Actor, id: string): Promise<PendingChange>;
  confirm(actor: Actor, id: string): Promise<Applied>;
  discard(actor: Actor, id: string): Promise<PendingChange>;
  undo(actor: Actor, id: string): Promise<{ change: PendingChange; undone: number }>;
  /** The member's changes on this surface created since an instant, newest first. */
  recent(memberId: string, since: Date, limit: number): Promise<PendingChange[]>;
}

/** The pending-change service of one surface. */
export function pendingChanges(core: Core, options: PendingOptions): PendingChanges {
  const { surface, ttlMs } = options;
  const undoWindowMs = options.undoWindowMs ?? PENDING_KEEP_MS;
  if (undoWindowMs > PENDING_KEEP_MS)
    throw new Error(`pending: an Undo window over ${PENDING_KEEP_MS} ms outlives the row`);
  const refusals: Refusals = { ...DEFAULT_REFUSALS, ...options.refusals };
  const clock = options.clock ?? (() => core.clock());
  const flow = pendingFlow(surface);
  const db = core.db.knex;
  const refuse = (key: keyof Refusals, id: string, code: 'not_found' | 'conflict' = 'conflict') =>
    new OpError(code, refusals[key], { id });
  const decided = (
    change: PendingChange,
    patch: Partial<PendingPayload>,
    now: Date,
  ): PendingPayload => ({
    ...change.payload,
    decided_at: now.toISOString(),
    ...patch,
  });

  /**
   * A record the change names was deleted since the preview (the op says "not found" with its
   * id, and the audit log says it was deleted): the refusal names it as the member knew it, never
   * by id, and the change is spent. A record only hidden for a moment keeps it confirmable.
   */
  const goneRecord = async (error: unknown, change: PendingChange): Promise<OpError | null> => {
    if (!isOpError(error) || error.code !== 'not_found') return null;
    const id = error.params.id;
    if (typeof id !== 'string' || !JSON.stringify(change.payload.args).includes(JSON.stringify(id)))
      return null;
    const name = change.householdId ? await deletedRecordName(db, change.householdId, id) : null;
    return name === null ? null : new OpError('conflict', 'errors.preview_record_gone', { name });
  };

  /** The time zone a card's instants are written in: the household's (UTC before there is one). */
  const householdTimeZone = async (actor: Actor): Promise<string> => {
    if (actor.householdId === null) return 'UTC';
    const row = (await db('households').where({ id: actor.householdId }).first('time_zone')) as
      { time_zone: string } | undefined;
    return row?.time_zone ?? 'UTC';
  };

  const service: PendingChanges = {
    surface,

    async preview(actor, op, args) {
      // Reads never wait for anyone, and a read's "apply" would claim nothing.
      if (!isWrite(op)) throw new Error(`pending: ${op.name} is a read`);
      const dry = await core.invoke(op, actor, args, { dryRun: true, surface });
      const timeZone = await householdTimeZone(actor);
      return {
        op,
        args: argsOf(args),
        card: await previewCard(db, op, dry.output, dry.changes, actor.locale, timeZone),
        fingerprint: changeFingerprint(dry.changes),
        output: dry.output,
        changes: dry.changes,
      };
    },

    async store(actor, preview) {
      const now = clock();
      // Each surface's rows clean up after themselves too, with or without a scheduler running.
      await flow.purge(db, now);
      return flow.save(db, {
        id: core.newId(options.idPrefix ?? 'pnd'),
        householdId: actor.householdId,
        memberId: actor.memberId,
        now,
        ttlMs,
        payload: {
          op: preview.op.name,
          args: options.args ? options.args.keep(preview.args) : preview.args,
          token_id: actor.agent?.tokenId ?? null,
          channel: actor.channel,
          changes: preview.fingerprint,
          card: preview.card,
          status: 'pending',
          audit_id: null,
          decided_at: null,
          undone_at: null,
        },
      });
    },

    async prepare(actor, op, args) {
      const preview = await service.preview(actor, op, args);
      return { change: await service.store(actor, preview), preview };
    },

    async get(actor, id) {
      const change = await flow.load(db, id);
      const mine =
        change !== null &&
        change.householdId === actor.householdId &&
        change.memberId === actor.memberId &&
        change.payload.token_id === (actor.agent?.tokenId ?? null);
      if (!change || !mine) throw refuse('not_found', id, 'not_found');
      return change;
    },

    async open(actor, id) {
      const change = await service.get(actor, id);
      if (change.payload.status === 'failed') throw refuse('spent', id);
      if (change.usedAt !== null || change.payload.status !== 'pending') throw refuse('used', id);
      if (change.expiresAt <= clock().toISOString()) throw refuse('expired', id);
      return change;
    },

    async confirm(actor, id) {
      const change = await service.open(actor, id);
      const now = clock();
      const op = core.op(change.payload.op);
      if (!offers(op, actor, surface)) throw new OpError('forbidden');
      let payload: PendingPayload | undefined;
      let result: InvokeResult;
      const args = options.args
        ? await options.args.restore(change.payload.args, change)
        : change.payload.args;
      try {
        result = await core.invoke(op, actor, args, {
          surface,
          expectChanges: change.payload.changes,
          // The claim commits with the change: a failure anywhere before the commit leaves the
          // change confirmable, and of two confirms (any processes) only one commits.
          beforeCommit: async (trx, applied) => {
            payload = decided(change, { status: 'confirmed', audit_id: applied.auditId }, now);
            if (!(await flow.claim(trx, id, now, { unexpired: true, payload })))
              throw refuse('used', id);
          },
        });
      } catch (error) {
        const gone = await goneRecord(error, change);
        if (gone || (isOpError(error) && error.key === 'errors.preview_changed'))
          // What was shown can never be applied any more; still pending only if no one else won.
          await flow.claim(db, id, now, { payload: decided(change, { status: 'failed' }, now) });
        throw gone ?? error;
      }
      if (!payload) throw new Error(`pending: ${op.name} committed without its claim`);
      return {
        change: { ...change, usedAt: now.toISOString(), payload },
        op,
        result,
        undoUntil: result.auditId ? new Date(now.getTime() + undoWindowMs).toISOString() : null,
      };
    },

    async discard(actor, id) {
      const change = await service.get(actor, id);
      if (change.usedAt !== null || change.payload.status !== 'pending') throw refuse('used', id);
      const now = clock();
      const payload = decided(change, { status: 'discarded' }, now);
      if (!(await flow.claim(db, id, now, { payload }))) throw refuse('used', id);
      return { ...change, usedAt: now.toISOString(), payload };
    },

    async undo(actor, id) {
      const change = await service.get(actor, id);
      const { payload } = change;
      if (payload.status !== 'confirmed' || !payload.audit_id) throw refuse('not_applied', id);
      if (payload.undone_at)
        throw new OpError('conflict', 'errors.already_undone', { summary: payload.card.title });
      const now = clock();
      const decidedAt = payload.decided_at ? Date.parse(payload.decided_at) : 0;
      if (now.getTime() - decidedAt > undoWindowMs) throw refuse('undo_expired', id);
      const undone: PendingPayload = { ...payload, undone_at: now.toISOString() };
      const result = await core.invoke(
        undoOp,
        actor,
        { ids: [payload.audit_id] },
        { surface, beforeCommit: (trx) => flow.settle(trx, id, undone) },
      );
      return { change: { ...change, payload: undone }, undone: result.output.changes };
    },

    async recent(memberId, since, limit) {
      return flow.recent(db, { memberId, since, limit });
    },
  };
  return service;
}

/** A call's arguments as stored: an object (ops take objects; an absent one is empty). */
function argsOf(args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object' || Array.isArray(args))
    throw new Error('pending: arguments are not an object');
  return { ...args };
}
