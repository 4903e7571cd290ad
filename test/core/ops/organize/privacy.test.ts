import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Actor } from '../../../../core/kernel/actor.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { addSubscription, subscriptionRow } from './helpers.ts';

describe('organize ops and private subscriptions', () => {
  let h: TestHousehold;
  let luis: Actor;
  let category: string;
  let method: string;
  beforeEach(async () => {
    h = await createTestHousehold();
    luis = await h.addMember('Luis');
    category = (await h.core.invoke('create_category', h.owner, { name: 'Streaming' })).output.id;
    method = (await h.core.invoke('create_payment_method', h.owner, { name: 'Visa', kind: 'card' }))
      .output.id;
    await addSubscription(h, {
      name: 'Netflix',
      category_id: category,
      payment_method_id: method,
      tags: ['tv'],
    });
    await addSubscription(
      h,
      {
        name: 'Secret',
        category_id: category,
        payment_method_id: method,
        tags: ['tv'],
        private: true,
      },
      luis,
    );
  });
  afterEach(async () => h.close());

  const counts = async (actor: Actor) => ({
    category: (await h.core.invoke('list_categories', actor, {})).output.items[0]
      ?.subscription_count,
    method: (await h.core.invoke('list_payment_methods', actor, {})).output.items[0]
      ?.subscription_count,
    tag: (await h.core.invoke('list_tags', actor, {})).output.items[0]?.subscription_count,
  });

  it("does not count another member's private subscription in subscription_count", async () => {
    expect(await counts(h.owner)).toEqual({ category: 1, method: 1, tag: 1 });
    expect(await counts(luis)).toEqual({ category: 2, method: 2, tag: 2 });
    const updated = await h.core.invoke('update_category', h.owner, {
      id: category,
      color: '#000000',
    });
    expect(updated.output.subscription_count).toBe(1);
  });

  it('leaves no subscription pointing at a deleted category, yet counts only the visible ones moved', async () => {
    const secret = (await h.db.knex('subscriptions').where({ name: 'Secret' }).first()) as {
      id: string;
    };
    const { output } = await h.core.invoke('delete_category', h.owner, { id: category });
    expect(output.subscriptions_moved).toBe(1);
    expect((await subscriptionRow(h, secret.id)).category_id).toBeNull();
  });

  it('counts only the visible subscriptions a deleted tag is taken off', async () => {
    const tag = (await h.core.invoke('list_tags', h.owner, {})).output.items[0];
    if (!tag) throw new Error('the tag was not created');
    const { output } = await h.core.invoke('delete_tag', h.owner, { id: tag.id });
    expect(output.subscriptions_untagged).toBe(1);
    expect(await h.db.knex('subscription_tags').where({ tag_id: tag.id })).toEqual([]);
  });
});
