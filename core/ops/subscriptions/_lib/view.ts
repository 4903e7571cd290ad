import { notFound } from '../../../errors/index.ts';
import type { OpContext } from '../../../kernel/op.ts';
import { viewsByIds } from '../../../store/repos/subscriptions.ts';
import { household } from '../../shared/context.ts';
import { modelRead, visibleTo } from '../../shared/readModel.ts';
import type { Subscription } from '../../../domain/schemas.ts';

const SYSTEM = { kind: 'system', memberId: null } as const;

/**
 * The household's subscription views for the day, by id, filled as calls read them: a part of
 * the read model (core/ops/shared/readModel.ts), so it is dropped with it by any change to the
 * household (a tag renamed, a share changed, a price change) or another process's commit, never
 * by time. It holds views as the system sees them; each caller keeps what its actor may see.
 * Inside a write transaction (or where the cache does not serve) it is a new, empty map per
 * call: every view is then read from the transaction.
 */
function viewCache(ctx: OpContext): Promise<Map<string, Subscription>> {
  // The read cache freezes what it keeps, but not a Map's entries: this one is filled lazily.
  return modelRead(ctx, 'views', async () => new Map<string, Subscription>());
}

/** A copy a caller may change (kept views are frozen and shared): plain JSON data, copied deeply. */
function copied<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i += 1) items[i] = copied(value[i]);
    return items as T; // an array of the same element type
  }
  // A loop over keys rather than Object.entries: no array of pairs per object (it was the largest
  // share of a cached get_subscription's CPU). Views are plain objects: nothing is inherited.
  const fields = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key in fields) out[key] = copied(fields[key]);
  return out as T; // the same fields, copied
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * The views of the subscriptions with these ids that the actor may see, in the ids' order, as
 * every surface sees them: those not kept yet read in one statement (per 500), the rest from the
 * read model. The privacy rule is visibleSubscriptions's, applied to each view.
 */
export async function viewsOf(ctx: OpContext, ids: readonly string[]): Promise<Subscription[]> {
  if (ids.length === 0) return [];
  const kept = await viewCache(ctx);
  const missing = ids.filter((id) => !kept.has(id));
  if (missing.length > 0) {
    const read = await viewsByIds(ctx.tx.trx, SYSTEM, household(ctx).id, missing, ctx.today);
    for (const view of read) kept.set(view.id, deepFreeze(view));
  }
  const out: Subscription[] = [];
  for (const id of ids) {
    const view = kept.get(id);
    if (view && visibleTo(ctx.actor, { private: view.private ? 1 : 0, member_id: view.member_id }))
      out.push(copied(view));
  }
  return out;
}

/**
 * A subscription the actor may see, as every surface sees it (see viewsOf: one SQL statement at
 * most); "not found" as requireSubscription says it. It locks nothing: an op that changes the
 * subscription has read it through requireSubscription first.
 */
export async function loadView(ctx: OpContext, id: string): Promise<Subscription> {
  const [view] = await viewsOf(ctx, [id]);
  if (!view) throw notFound('subscription', id);
  return view;
}
