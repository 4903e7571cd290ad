import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Actor, memberActor, newcomerActor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../../helpers/sharedDatabase.ts';
import { TEST_NOW } from '../../helpers/testCore.ts';

/** Two cores on two connections of one database, as two `exhale` processes are. */
describe('writes that meet another at the same moment', () => {
  let shared: SharedTestDatabase;
  let cores: Array<Core<typeof catalog>>;
  let owner: Actor;

  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    const clock = () => new Date(TEST_NOW);
    cores = [
      new Core({ db: shared.open(), catalog, clock }),
      new Core({ db: shared.open(), catalog, clock }),
    ];
    const created = await cores[0]!.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Shared home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      language: 'en',
      owner_name: 'Ana',
    });
    owner = memberActor(
      {
        id: created.output.member.id,
        household_id: created.output.household.id,
        role: 'owner',
        language: 'en',
      },
      'cli',
    );
  });
  afterEach(async () => shared.close());

  it('creates a new category, tag and payment method named by twenty calls at once exactly once, and every call succeeds', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        cores[i % 2]!.invoke('create_subscription', owner, {
          name: `Service ${i}`,
          amount: '5.00',
          first_charge_date: '2026-01-05',
          category: 'Streaming',
          payment_method: 'Visa',
          tags: ['family'],
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const reader = cores[0]!;
    const categories = await reader.invoke('list_categories', owner, {});
    const methods = await reader.invoke('list_payment_methods', owner, {});
    const tags = await reader.invoke('list_tags', owner, {});
    expect(categories.output.items.map((c) => c.name)).toEqual(['Streaming']);
    expect(methods.output.items.map((m) => m.name)).toEqual(['Visa']);
    expect(tags.output.items.map((t) => t.name)).toEqual(['family']);
    const subs = await reader.invoke('list_subscriptions', owner, {});
    expect(subs.output.items).toHaveLength(20);
  });

  it('answers all but one of ten calls creating the same tag at once with "already exists", never an internal error', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        cores[i % 2]!.invoke('create_tag', owner, { name: 'work' }),
      ),
    );
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(refused).toMatchObject(
      Array.from({ length: 9 }, () => ({ code: 'conflict', key: 'errors.organize.tag_exists' })),
    );
  });
});
