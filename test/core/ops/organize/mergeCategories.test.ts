import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { memberActor, newcomerActor } from '../../../../core/kernel/actor.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { addSubscription, failure, snapshot, subscriptionRow } from './helpers.ts';

describe('merge_categories', () => {
  let h: TestHousehold;
  let tv: string;
  let video: string;
  let streaming: string;
  beforeEach(async () => {
    h = await createTestHousehold();
    const make = async (name: string) =>
      (await h.core.invoke('create_category', h.owner, { name })).output.id;
    tv = await make('TV');
    video = await make('Video');
    streaming = await make('Streaming');
  });
  afterEach(async () => h.close());

  it('moves the subscriptions of every source to the target and deletes the sources', async () => {
    const a = await addSubscription(h, { name: 'Netflix', category_id: tv });
    const b = await addSubscription(h, { name: 'YouTube', category_id: video });
    const c = await addSubscription(h, { name: 'Hulu', category_id: streaming });
    const { output } = await h.core.invoke('merge_categories', h.owner, {
      source_ids: [tv, video, tv],
      target_id: streaming,
    });
    expect(output).toEqual({
      target: { id: streaming, name: 'Streaming', color: null, subscription_count: 3 },
      merged: [
        { id: tv, name: 'TV' },
        { id: video, name: 'Video' },
      ],
      subscriptions_moved: 2,
    });
    for (const id of [a, b, c]) expect((await subscriptionRow(h, id)).category_id).toBe(streaming);
    expect((await h.db.knex('categories').select('id')).map((r: { id: string }) => r.id)).toEqual([
      streaming,
    ]);
  });

  it('is restored completely by undo', async () => {
    await addSubscription(h, { name: 'Netflix', category_id: tv });
    await addSubscription(h, { name: 'YouTube', category_id: video });
    await addSubscription(h, { name: 'Hulu', category_id: streaming });
    const before = await snapshot(h);
    const { auditId } = await h.core.invoke('merge_categories', h.owner, {
      source_ids: [tv, video],
      target_id: streaming,
    });
    expect(auditId).not.toBeNull();
    expect((await snapshot(h)).categories).toHaveLength(1);
    const undone = await h.core.invoke('undo', h.owner, { ids: [auditId] });
    expect(undone.output.undone.map((u) => u.id)).toEqual([auditId]);
    const after = await snapshot(h);
    expect(after.categories).toEqual(before.categories);
    expect(after.subscriptions).toEqual(before.subscriptions);
    const list = await h.core.invoke('list_categories', h.owner, {});
    expect(list.output.items.map((c) => [c.name, c.subscription_count])).toEqual([
      ['Streaming', 1],
      ['TV', 1],
      ['Video', 1],
    ]);
  });

  it('refuses a target that is also a source, and unknown ids, writing nothing', async () => {
    await addSubscription(h, { name: 'Netflix', category_id: tv });
    const before = await snapshot(h);
    const itself = await failure(
      h.core.invoke('merge_categories', h.owner, {
        source_ids: [tv, streaming],
        target_id: streaming,
      }),
    );
    expect(itself.code).toBe('invalid_input');
    expect(itself.issues[0]?.path).toBe('source_ids');
    const source = await failure(
      h.core.invoke('merge_categories', h.owner, {
        source_ids: [tv, 'cat_nope'],
        target_id: streaming,
      }),
    );
    expect(source.code).toBe('not_found');
    expect(source.render('en')).toBe("Category cat_nope wasn't found.");
    const target = await failure(
      h.core.invoke('merge_categories', h.owner, { source_ids: [tv], target_id: 'cat_nope' }),
    );
    expect(target.code).toBe('not_found');
    const empty = await failure(
      h.core.invoke('merge_categories', h.owner, { source_ids: [], target_id: streaming }),
    );
    expect(empty.code).toBe('invalid_input');
    expect(await snapshot(h)).toEqual(before);
  });

  it('refuses a category of another household as not found', async () => {
    const created = await h.core.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Next door',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      language: 'en',
      owner_name: 'Eva',
    });
    const { household, member } = created.output;
    const neighbour = memberActor(
      { id: member.id, household_id: household.id, role: 'owner', language: 'en' },
      'cli',
    );
    const foreign = (await h.core.invoke('create_category', neighbour, { name: 'Foreign' })).output
      .id;
    const before = await snapshot(h);
    const error = await failure(
      h.core.invoke('merge_categories', h.owner, { source_ids: [foreign], target_id: streaming }),
    );
    expect(error.code).toBe('not_found');
    expect(await snapshot(h)).toEqual(before);
  });
});
