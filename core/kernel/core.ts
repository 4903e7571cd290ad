import type { Knex } from 'knex';
import type { z } from 'zod';

import { localDate } from '../domain/dates.ts';
import {
  type ActivityText,
  renderActivity,
  storedActivity,
  undoneActivity,
} from '../i18n/activity.ts';
import type { Household } from '../domain/schemas.ts';
import type { Database } from '../store/connection.ts';
import { insertAuditEntry, summariesOf } from '../store/repos/audit.ts';
import { loadActingHousehold } from '../store/repos/households.ts';
import { type Change, TrackedTx } from '../store/tracked.ts';
import { type Actor, scopeAllows } from './actor.ts';
import { OpError } from '../errors/index.ts';
import { type ChangeEvent, type EventBus, InMemoryEventBus } from './events.ts';
import { cachedRead, type Freshness, newFreshness, readCacheOf } from './readCache.ts';
import { randomId } from './ids.ts';
import type { AnyOp, OpContext, OpSpec, Surface } from './op.ts';
import { followPrivacy, privateOwnerOf } from '../store/privacy.ts';
import { changeFingerprint } from './preview.ts';
import { observeOp, type OpObserver } from './observe.ts';
import { assertOffered, strictInputOf } from './surface.ts';
import { parseInput } from './validation.ts';
import { transactionWithRetry } from './retry.ts';

export interface InvokeOptions {
  /** Run the op and roll back: the result and the changes it would make, nothing written. */
  dryRun?: boolean;
  /**
   * Apply only if the run changes exactly what a preview showed (its `changeFingerprint`);
   * otherwise roll back and refuse with `errors.preview_changed`.
   */
  expectChanges?: string;
  /**
   * The surface calling (MCP, assistant, chat, web, CLI): an op excluded there is refused with
   * `errors.not_on_surface`, whoever asks. Absent only for internal calls (tests, the composition root).
   */
  surface?: Surface;
  /**
   * Runs inside the write's transaction, after the audit entry and before the commit (never for a
   * dry run or a read): a caller's own bookkeeping that must commit with the change or not at all
   * (a pending change marked applied). Throwing rolls the whole call back.
   */
  beforeCommit?: (trx: Knex.Transaction, applied: { auditId: string | null }) => Promise<void>;
  /**
   * The calling request's freshness check (`newFreshness()`, readCache.ts): the kernel's cached
   * membership check shares the request's one SQLite `data_version` read instead of making its own.
   */
  fresh?: Freshness | undefined;
}

export interface InvokeResult<T = unknown> {
  output: T;
  changes: Change[];
  dryRun: boolean;
  /** The audit entry written (null for reads, dry runs and writes that changed nothing). */
  auditId: string | null;
}

export interface CoreOptions<C extends readonly AnyOp[]> {
  db: Database;
  catalog: C;
  bus?: EventBus;
  clock?: () => Date;
  newId?: (prefix: string) => string;
  /**
   * Check every op's result against its output schema. On by default; off when NODE_ENV is
   * "production", where the schemas have already been proven by the test suite.
   */
  validateOutputs?: boolean;
}

/** Thrown inside a dry run's transaction to roll it back and carry the result out. */
class DryRunRollback {
  constructor(
    readonly output: unknown,
    readonly changes: Change[],
  ) {}
}

/**
 * The kernel: `invoke()` is the only way anything runs an op. It parses, authorizes, runs the op
 * in a transaction that records every row written, audits and commits (or rolls back for a dry
 * run), then publishes a change event.
 */
/** The output type of the op named N in catalog C. */
export type OutputOf<C extends readonly AnyOp[], N extends string> = z.output<
  Extract<C[number], { name: N }>['output']
>;

export class Core<C extends readonly AnyOp[] = readonly AnyOp[]> {
  readonly db: Database;
  readonly bus: EventBus;
  readonly catalog: C;
  readonly clock: () => Date;
  readonly newId: (prefix: string) => string;
  private readonly validateOutputs: boolean;
  private readonly byName: Map<string, AnyOp>;
  private readonly observers = new Set<OpObserver>();

  constructor(options: CoreOptions<C>) {
    this.db = options.db;
    this.catalog = options.catalog;
    this.bus = options.bus ?? new InMemoryEventBus();
    this.clock = options.clock ?? (() => new Date());
    this.newId = options.newId ?? randomId;
    this.validateOutputs = options.validateOutputs ?? process.env.NODE_ENV !== 'production';
    this.byName = new Map(options.catalog.map((op) => [op.name, op]));
    // Read models per household, dropped by this bus's events (other processes', on PostgreSQL).
    readCacheOf(this.db).follow(this.bus);
  }

  op(name: string): AnyOp {
    const op = this.byName.get(name);
    if (!op) throw new OpError('not_found', 'errors.unknown_op', { name });
    return op;
  }

  /** Runs an op by its name (typed from the catalog) or by its spec. */
  invoke<N extends C[number]['name']>(
    name: N,
    actor: Actor,
    input: unknown,
    options?: InvokeOptions,
  ): Promise<InvokeResult<OutputOf<C, N>>>;
  invoke<I extends z.ZodType, O extends z.ZodType>(
    op: OpSpec<I, O>,
    actor: Actor,
    input: unknown,
    options?: InvokeOptions,
  ): Promise<InvokeResult<z.output<O>>>;
  invoke(
    name: string,
    actor: Actor,
    input: unknown,
    options?: InvokeOptions,
  ): Promise<InvokeResult>;
  async invoke<I extends z.ZodType, O extends z.ZodType>(
    opOrName: OpSpec<I, O> | string,
    actor: Actor,
    input: unknown,
    options: InvokeOptions = {},
  ): Promise<InvokeResult<z.output<O>>> {
    const name = typeof opOrName === 'string' ? opOrName : opOrName.name;
    const call = {
      op: name,
      surface: options.surface ?? null,
      actorKind: actor.kind,
      channel: actor.channel,
      effect:
        typeof opOrName === 'string' ? (this.byName.get(name)?.effect ?? null) : opOrName.effect,
      householdId: actor.householdId,
      dryRun: options.dryRun === true,
    };
    return observeOp(this.observers, call, () => this.execute(opOrName, actor, input, options));
  }

  /**
   * Watches every op call (metrics, logs): `observer` gets each call's name, surface, outcome and
   * duration after it ends. Returns the function that stops watching.
   */
  observe(observer: OpObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  private async execute<I extends z.ZodType, O extends z.ZodType>(
    opOrName: OpSpec<I, O> | string,
    actor: Actor,
    input: unknown,
    options: InvokeOptions,
  ): Promise<InvokeResult<z.output<O>>> {
    const op = (typeof opOrName === 'string' ? this.op(opOrName) : opOrName) as OpSpec<I, O>;
    assertOffered(op as unknown as AnyOp, options.surface);
    const parsed = parseInput(
      strictInputOf(op as unknown as AnyOp),
      input,
      actor.locale,
    ) as z.output<I>;
    this.authorize(op as unknown as AnyOp, actor);
    const dryRun = options.dryRun === true;
    const now = this.clock();
    const auditId = this.newId('act');
    // One data_version read for every cached read of this call (the caller's, when it has one).
    const fresh = options.fresh ?? newFreshness();

    const runOp = async (
      db: Knex | Knex.Transaction,
    ): Promise<{ output: z.output<O>; tx: TrackedTx; household: Household | null }> => {
      const household = await this.loadHousehold(db, op as unknown as AnyOp, actor, fresh);
      const tx = new TrackedTx(db, this.db.dialect);
      const ctx: OpContext = {
        actor,
        household,
        tx,
        now,
        today: localDate(now, household?.time_zone ?? 'UTC'),
        dryRun,
        auditId,
        newId: this.newId,
        findOp: (name) => this.byName.get(name),
        fresh,
      };
      const result = await op.run(ctx, parsed);
      const output = (this.validateOutputs ? op.output.parse(result) : result) as z.output<O>;
      return { output, tx, household };
    };

    // Reads need no transaction (they write nothing), which keeps the kernel's overhead small.
    // A dry run of a read is the read itself: nothing to roll back. On a SQLite file they run on
    // the read pool (`Database.reader`), in parallel with each other and with the writer.
    if (op.effect === 'read') {
      const { output } = await runOp(this.db.reader ?? this.db.knex);
      return { output, changes: [], dryRun: false, auditId: null };
    }

    let committed: { output: z.output<O>; changes: Change[]; audited: boolean } | undefined;
    try {
      committed = await transactionWithRetry(this.db, async (trx) => {
        const { output, tx, household } = await runOp(trx);
        if (dryRun) throw new DryRunRollback(output, tx.changes);
        if (
          options.expectChanges !== undefined &&
          changeFingerprint(tx.changes) !== options.expectChanges
        )
          throw new OpError('conflict', 'errors.preview_changed');
        const audited = op.effect !== 'read' && tx.changes.length > 0;
        if (audited)
          await this.writeAudit(trx, {
            op: op as unknown as AnyOp,
            actor,
            input: parsed,
            output,
            changes: tx.changes,
            auditId,
            now,
            household,
          });
        if (options.beforeCommit)
          await options.beforeCommit(trx, { auditId: audited ? auditId : null });
        return { output, changes: tx.changes, audited };
      });
    } catch (error) {
      if (error instanceof DryRunRollback) {
        return {
          output: error.output as z.output<O>,
          changes: error.changes,
          dryRun: true,
          auditId: null,
        };
      }
      throw error;
    }

    const householdId = actor.householdId ?? householdOfChanges(committed.changes);
    // Every Core over this Database drops the household's read models before anyone hears of it.
    if (committed.audited && householdId) readCacheOf(this.db).changed(householdId);
    if (committed.audited && householdId)
      this.publish(op as unknown as AnyOp, actor, auditId, committed.changes, householdId);
    return {
      output: committed.output,
      changes: committed.changes,
      dryRun: false,
      auditId: committed.audited ? auditId : null,
    };
  }

  private authorize(op: AnyOp, actor: Actor): void {
    if (!scopeAllows(actor.scope, op.scope)) {
      throw new OpError('insufficient_scope', 'errors.insufficient_scope', { scope: op.scope });
    }
    if (actor.kind === 'assistant' && op.scope === 'trusted') {
      throw new OpError('forbidden', 'errors.assistant_forbidden');
    }
    const needsHousehold = (op.household ?? 'required') === 'required';
    if (needsHousehold && actor.householdId === null)
      throw new OpError('forbidden', 'errors.no_household');
    if (op.ownerOnly && actor.role !== 'owner' && actor.kind !== 'system') {
      throw new OpError('forbidden', 'errors.owner_only');
    }
  }

  /** The actor's household, checking in the same query that the acting member still belongs to it. */
  private async loadHousehold(
    db: Knex | Knex.Transaction,
    op: AnyOp,
    actor: Actor,
    fresh: Freshness | undefined,
  ): Promise<Household | null> {
    if (actor.householdId === null) return null;
    const householdId = actor.householdId;
    // Cached until a change to the household (a member removed, its time zone changed): strict,
    // so a member removed in another process cannot act again (see ReadCache.get).
    const acting = await cachedRead(
      db,
      householdId,
      `acting:${actor.memberId ?? ''}`,
      '',
      () => loadActingHousehold(db, householdId, actor.memberId),
      { strict: true, fresh },
    );
    if (!acting) {
      if ((op.household ?? 'required') === 'none') return null;
      throw new OpError('forbidden', 'errors.no_household');
    }
    if (!acting.isMember) throw new OpError('forbidden', 'errors.not_a_member');
    return acting.household;
  }

  private async writeAudit(
    trx: Knex.Transaction,
    entry: {
      op: AnyOp;
      actor: Actor;
      input: unknown;
      output: unknown;
      changes: Change[];
      auditId: string;
      now: Date;
      household: Household | null;
    },
  ): Promise<void> {
    const householdId = entry.household?.id ?? householdOfChanges(entry.changes);
    if (!householdId) throw new Error(`op ${entry.op.name} changed rows of no household`);
    const links = entry.op.links ? entry.op.links(entry.output as never) : null;
    const text = await activityText(trx, entry.op, entry.input, entry.output, links);
    const createdMember =
      entry.actor.memberId ??
      entry.changes.find((c) => c.table === 'members' && c.before === null)?.id ??
      null;
    await followPrivacy(trx, householdId, entry.changes);
    await insertAuditEntry(trx, {
      id: entry.auditId,
      household_id: householdId,
      member_id: createdMember,
      actor_kind: entry.actor.kind,
      channel: entry.actor.channel,
      agent_name: entry.actor.agent?.name ?? null,
      token_id: entry.actor.agent?.tokenId ?? null,
      op: entry.op.name,
      input: auditInput(entry.input),
      changes: JSON.stringify(entry.changes),
      // English for logs and readers that know no better; each reader gets summary_text rendered.
      summary: renderActivity('en', text).slice(0, 300),
      summary_text: JSON.stringify(text),
      links: links ? JSON.stringify(links) : null,
      private_to: await privateOwnerOf(trx, entry.changes),
      undone_by: null,
      created_at: entry.now.toISOString(),
    });
  }

  private publish(
    op: AnyOp,
    actor: Actor,
    auditId: string,
    changes: Change[],
    householdId: string,
  ): void {
    const event: ChangeEvent = {
      kind: 'changed',
      householdId,
      auditId,
      op: op.name,
      actor: {
        kind: actor.kind,
        memberId: actor.memberId,
        channel: actor.channel,
        agentName: actor.agent?.name,
      },
      entities: changes.map((c) => ({ table: c.table, id: c.id })),
    };
    this.bus.publish(event);
  }
}

/** The household a set of changes belongs to, for ops run before the actor has one (create, join). */
function householdOfChanges(changes: readonly Change[]): string | null {
  for (const change of changes) {
    if (change.table === 'households') return change.id;
    const row = change.after ?? change.before;
    if (row && typeof row.household_id === 'string' && row.household_id !== '')
      return row.household_id;
  }
  return null;
}

/** The line of an entry: `activity.<op>[.<variant>]` with the op's parameters and its linked lines. */
async function activityText(
  trx: Knex.Transaction,
  op: AnyOp,
  input: unknown,
  output: unknown,
  links: readonly string[] | null,
): Promise<ActivityText> {
  // `never`: input and output were parsed by this very op's schemas, which AnyOp erases.
  const params = op.summarize?.(input as never, output as never);
  const variant = op.summaryVariant?.(input as never, output as never) ?? null;
  return {
    key: variant ? `activity.${op.name}.${variant}` : `activity.${op.name}`,
    ...(params ? { params } : {}),
    ...(links ? { items: await linkedTexts(trx, links) } : {}),
  };
}

/**
 * The lines of the entries an op acts on (an undo: the entries it undoes), in the order given,
 * gone ones left out. An entry that itself acts on entries (an undo being undone) is followed down
 * to the changes, so lines never stack ("Undid: Undid: Added…"): at an odd depth a change is named
 * as undone (`undoneActivity`), at an even one as it was made (a redo brings it back).
 */
async function linkedTexts(
  trx: Knex.Transaction,
  ids: readonly string[],
  undone = true,
  depth = 0,
): Promise<ActivityText[]> {
  const byId = await summariesOf(trx, ids);
  const out: ActivityText[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) continue;
    const inner = row.links === null ? [] : (JSON.parse(row.links) as string[]);
    // 50: the undo op's own bound on a chain of undos.
    if (inner.length > 0 && depth < 50)
      out.push(...(await linkedTexts(trx, inner, !undone, depth + 1)));
    else out.push(undone ? undoneActivity(row) : storedActivity(row));
  }
  return out;
}

/** Inputs are kept for people to read; a bulky one (an imported document) is summarised, since undo needs only the changes. */
const MAX_AUDIT_INPUT = 64 * 1024;
function auditInput(input: unknown): string {
  const text = JSON.stringify(input ?? {});
  return text.length <= MAX_AUDIT_INPUT
    ? text
    : JSON.stringify({ truncated: true, bytes: text.length });
}
