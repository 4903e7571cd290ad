import { formatAmount, MAX_MINOR, parseAmount } from '../../domain/money.ts';
import { minorUnits } from '../../domain/currencies.ts';
import { type EntityName, notFound, OpError } from '../../errors/index.ts';
import type { OpContext } from '../../kernel/op.ts';
import { t } from '../../i18n/index.ts';
import { type SubscriptionRow, visibleSubscriptions } from '../../store/repos/subscriptions.ts';
import type { Household } from '../../domain/schemas.ts';

/** The actor's household; the kernel guarantees it for every op that needs one. */
export function household(ctx: OpContext): Household {
  if (!ctx.household) throw new OpError('forbidden', 'errors.no_household');
  return ctx.household;
}

/** The acting member's id; ops that need a person (not the system) call this. */
export function memberId(ctx: OpContext): string {
  if (!ctx.actor.memberId) throw new OpError('forbidden', 'errors.not_a_member');
  return ctx.actor.memberId;
}

/**
 * A subscription the actor may see, or "not found" (also for another member's private one). In a
 * write it is locked until commit (PostgreSQL): the op computes its changes from this row, and
 * every op changing a subscription or its charges, prices, tags or shares reads it here first, so
 * such writes to one subscription run one after another, each from the other's result.
 */
export async function requireSubscription(ctx: OpContext, id: string): Promise<SubscriptionRow> {
  const query = visibleSubscriptions(ctx.tx.trx, ctx.actor, household(ctx).id).andWhere(
    'subscriptions.id',
    id,
  );
  const row = await ctx.tx.locked(query, 'subscriptions').first();
  if (!row) throw notFound('subscription', id);
  return row;
}

/**
 * A household-owned row (category, payment method, tag, member, invite, token) by id, or "not
 * found". `forUpdate` when the op goes on to change this row from what it read: the row is then
 * locked until commit (PostgreSQL). Rows only referred to (a category given to a subscription)
 * are not locked, which keeps lock chains, and so deadlocks, short.
 */
export async function requireOwned<T>(
  ctx: OpContext,
  table: 'categories' | 'payment_methods' | 'tags' | 'members' | 'invites' | 'tokens',
  entity: EntityName,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<T> {
  const query = ctx.tx.from(table).where({ id, household_id: household(ctx).id });
  const row = (await (options.forUpdate ? ctx.tx.locked(query, table) : query).first()) as
    T | undefined;
  if (!row) throw notFound(entity, id);
  return row;
}

/** Minor units of a decimal string, or an `invalid_input` error naming the field. */
export function toMinor(
  ctx: OpContext,
  amount: string,
  currency: string,
  field = 'amount',
): number {
  const parsed = parseAmount(amount, currency);
  if (parsed.ok) return parsed.minor;
  const key = {
    // A currency without decimals (JPY) says so, not "at most 0 decimals".
    too_many_decimals:
      minorUnits(currency) === 0 ? 'errors.input.whole_amount' : 'errors.input.too_many_decimals',
    too_large: 'errors.input.amount_too_large',
    format: 'errors.input.amount',
  }[parsed.reason];
  const max = formatAmount(MAX_MINOR, currency);
  const message = t(ctx.actor.locale, key, { currency, digits: minorUnits(currency), max });
  throw new OpError('invalid_input', 'errors.invalid_input', {}, [{ path: field, message }]);
}

/** An `invalid_input` error for one field with a translated message. */
export function fieldError(
  ctx: OpContext,
  field: string,
  key: string,
  params: Record<string, string | number> = {},
): OpError {
  return new OpError('invalid_input', 'errors.invalid_input', {}, [
    { path: field, message: t(ctx.actor.locale, key, params) },
  ]);
}

export function nowIso(ctx: OpContext): string {
  return ctx.now.toISOString();
}
