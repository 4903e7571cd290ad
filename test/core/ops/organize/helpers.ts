import { OpError } from '../../../../core/errors/index.ts';
import type { TestHousehold } from '../../../helpers/testCore.ts';

/** The OpError a call failed with (fails the test when it did not fail). */
export async function failure(call: Promise<unknown>): Promise<OpError> {
  const outcome = await call.then(
    () => new Error('expected the call to fail, but it succeeded'),
    (e: unknown) => e,
  );
  if (!(outcome instanceof OpError)) throw outcome;
  return outcome;
}

/** Every row an organize op may touch, plus the audit, to prove a refused call wrote nothing. */
export async function snapshot(h: TestHousehold): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of [
    'categories',
    'payment_methods',
    'tags',
    'subscriptions',
    'subscription_tags',
    'audit_entries',
  ]) {
    out[table] = await h.db.knex(table).orderBy(table === 'audit_entries' ? 'seq' : 'id');
  }
  return out;
}

/** Adds a subscription as `actor` and returns its id. */
export async function addSubscription(
  h: TestHousehold,
  fields: Record<string, unknown>,
  actor = h.owner,
): Promise<string> {
  const { output } = await h.core.invoke('create_subscription', actor, {
    amount: '9.99',
    ...fields,
  });
  return output.id;
}

export async function subscriptionRow(
  h: TestHousehold,
  id: string,
): Promise<Record<string, unknown>> {
  return (await h.db.knex('subscriptions').where({ id }).first()) as Record<string, unknown>;
}
