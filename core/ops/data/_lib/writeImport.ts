import type { OpContext } from '../../../kernel/op.ts';
import { type SubscriptionRow, visibleSubscriptions } from '../../../store/repos/subscriptions.ts';
import type { Change } from '../../../store/tracked.ts';
import { household, nowIso } from '../../shared/context.ts';
import { ensureTags, resolveNamed, setShares, setTagLinks } from '../../subscriptions/_lib/fields.ts';
import type { ImportEnvelope } from './document.ts';
import type { ValidItem } from './importItem.ts';

type DuplicateFields = Pick<SubscriptionRow, 'name' | 'amount_minor' | 'currency' | 'cycle_unit' | 'cycle_every'>;

/** Two subscriptions are the same when name (regardless of case), amount, currency and cycle match. */
export function duplicateKey(s: DuplicateFields): string {
  return [s.name.trim().toLowerCase(), s.amount_minor, s.currency, s.cycle_unit, s.cycle_every].join('|');
}

/** Keys of the subscriptions the actor can see (another member's private ones don't count). */
export async function existingKeys(ctx: OpContext): Promise<Set<string>> {
  const rows = (await visibleSubscriptions(ctx.tx.trx, ctx.actor, household(ctx).id).select(
    'subscriptions.name',
    'subscriptions.amount_minor',
    'subscriptions.currency',
    'subscriptions.cycle_unit',
    'subscriptions.cycle_every',
  )) as DuplicateFields[];
  return new Set(rows.map((r) => duplicateKey({ ...r, amount_minor: Number(r.amount_minor), cycle_every: Number(r.cycle_every) })));
}

function createdNow(ctx: OpContext, table: Change['table'], id: string): boolean {
  return ctx.tx.changes.some((c) => c.table === table && c.id === id && c.before === null);
}

/**
 * Categories, payment methods and tags listed in an Exhale export, matched by name regardless of
 * case; missing ones are created with the file's colour, kind and last digits.
 */
export async function ensureCatalog(ctx: OpContext, envelope: ImportEnvelope): Promise<void> {
  for (const category of envelope.categories) {
    const id = await resolveNamed(ctx, 'categories', undefined, category.name, 'category');
    if (id && category.color && createdNow(ctx, 'categories', id)) await ctx.tx.update('categories', id, { color: category.color });
  }
  for (const method of envelope.payment_methods) {
    const id = await resolveNamed(ctx, 'payment_methods', undefined, method.name, 'payment_method');
    if (id && createdNow(ctx, 'payment_methods', id)) {
      await ctx.tx.update('payment_methods', id, { kind: method.kind, last4: method.last4 ?? null });
    }
  }
  await ensureTags(
    ctx,
    envelope.tags.map((tag) => tag.name),
  );
}

/**
 * Manual exchange rates; a rate the household already has for that currency and day is kept.
 * As with set_exchange_rate, EUR (always 1) and future dates are not set.
 */
export async function importRates(ctx: OpContext, rates: ImportEnvelope['exchange_rates']): Promise<void> {
  const hh = household(ctx).id;
  for (const rate of rates) {
    if (rate.currency === 'EUR' || rate.date > ctx.today) continue;
    const existing = await ctx.tx.from('fx_rates').where({ household_id: hh, currency: rate.currency, date: rate.date }).first();
    if (existing) continue;
    await ctx.tx.insert('fx_rates', {
      id: ctx.newId('fx'),
      household_id: hh,
      date: rate.date,
      currency: rate.currency,
      per_eur: Number(rate.per_eur),
      source: 'manual',
    });
  }
}

/**
 * Writes one checked subscription for `owner` with its tags, charges and price changes, through
 * the same helpers create_subscription uses. Every member of the file maps to the owner, so a
 * split collapses to the owner paying all of it.
 */
export async function writeSubscription(ctx: OpContext, item: ValidItem, owner: string, keepPrivate: boolean): Promise<string> {
  const hh = household(ctx).id;
  const id = ctx.newId('sub');
  const now = nowIso(ctx);
  const row: SubscriptionRow = {
    ...item.fields,
    id,
    household_id: hh,
    member_id: owner,
    category_id: (await resolveNamed(ctx, 'categories', undefined, item.category ?? undefined, 'category')) ?? null,
    payment_method_id: (await resolveNamed(ctx, 'payment_methods', undefined, item.paymentMethod ?? undefined, 'payment_method')) ?? null,
    private: keepPrivate ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
  await ctx.tx.insert('subscriptions', { ...row });
  if (item.tags.length > 0) await setTagLinks(ctx, id, await ensureTags(ctx, item.tags));
  if (item.hasShares) await setShares(ctx, id, [{ member_id: owner, percent: '100' }]);
  for (const charge of item.charges) {
    await ctx.tx.insert('charges', {
      id: ctx.newId('chg'),
      household_id: hh,
      subscription_id: id,
      due_date: charge.due_date,
      status: charge.status,
      amount_minor: charge.amount_minor,
      currency: charge.currency,
      note: charge.note,
      recorded_at: charge.recorded_at ?? now,
    });
  }
  for (const change of item.priceChanges) {
    await ctx.tx.insert('price_changes', {
      id: ctx.newId('pc'),
      household_id: hh,
      subscription_id: id,
      effective_date: change.effective_date,
      old_amount_minor: change.old_amount_minor,
      new_amount_minor: change.new_amount_minor,
      currency: change.currency,
      created_at: change.created_at ?? now,
    });
  }
  return id;
}

/** How many rows of each table the import created, from the recorded changes. */
export function createdCounts(changes: readonly Change[]): Record<'categories' | 'payment_methods' | 'tags' | 'charges' | 'price_changes' | 'exchange_rates', number> {
  const count = (table: Change['table']) => changes.filter((c) => c.table === table && c.before === null).length;
  return {
    categories: count('categories'),
    payment_methods: count('payment_methods'),
    tags: count('tags'),
    charges: count('charges'),
    price_changes: count('price_changes'),
    exchange_rates: count('fx_rates'),
  };
}
