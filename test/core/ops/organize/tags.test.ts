import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { addSubscription, failure, snapshot } from './helpers.ts';

describe('tags', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  const create = (name: string) => h.core.invoke('create_tag', h.owner, { name });

  it('creates a tag that subscriptions then find by name', async () => {
    const { output } = await create('Work');
    expect(output).toEqual({ id: expect.any(String), name: 'Work', subscription_count: 0 });
    await addSubscription(h, { name: 'Slack', tags: ['work'] });
    const list = await h.core.invoke('list_tags', h.owner, {});
    expect(list.output.items).toEqual([{ id: output.id, name: 'Work', subscription_count: 1 }]);
  });

  it('refuses a duplicate name in other capitals and a name over 80 characters, writing nothing', async () => {
    await create('work');
    const before = await snapshot(h);
    const duplicate = await failure(create('WORK'));
    expect(duplicate.code).toBe('conflict');
    expect(duplicate.render('en')).toContain('There is already a tag called "work"');
    expect(duplicate.render('es')).toContain('Ya hay una etiqueta llamada "work"');
    const long = await failure(create('t'.repeat(81)));
    expect(long.code).toBe('invalid_input');
    expect(await snapshot(h)).toEqual(before);
  });

  it('lists tags by name with how many subscriptions carry each', async () => {
    await addSubscription(h, { name: 'Slack', tags: ['work', 'chat'] });
    await addSubscription(h, { name: 'Zoom', tags: ['work'] });
    await create('Family');
    const { output } = await h.core.invoke('list_tags', h.owner, {});
    expect(output.items.map((t) => [t.name, t.subscription_count])).toEqual([
      ['chat', 1],
      ['Family', 0],
      ['work', 2],
    ]);
  });

  it('renames a tag, keeping it on its subscriptions', async () => {
    const sub = await addSubscription(h, { name: 'Slack', tags: ['work'] });
    const tag = (await h.core.invoke('list_tags', h.owner, {})).output.items[0];
    if (!tag) throw new Error('the tag was not created');
    const { output } = await h.core.invoke('rename_tag', h.owner, { id: tag.id, name: 'Office' });
    expect(output).toEqual({ id: tag.id, name: 'Office', subscription_count: 1 });
    const view = await h.core.invoke('get_subscription', h.owner, { id: sub });
    expect(view.output.tags).toEqual([{ id: tag.id, name: 'Office' }]);
  });

  it("refuses renaming to another tag's name and an unknown tag, writing nothing", async () => {
    await create('work');
    const home = (await create('home')).output.id;
    const before = await snapshot(h);
    const clash = await failure(h.core.invoke('rename_tag', h.owner, { id: home, name: 'Work' }));
    expect(clash.code).toBe('conflict');
    const unknown = await failure(
      h.core.invoke('rename_tag', h.owner, { id: 'tag_nope', name: 'x' }),
    );
    expect(unknown.code).toBe('not_found');
    expect(unknown.render('en')).toBe("Tag tag_nope wasn't found.");
    expect(await snapshot(h)).toEqual(before);
  });

  it('deletes a tag with its links, says how many subscriptions lost it, and is undone completely', async () => {
    expect(h.core.op('delete_tag').effect).toBe('destructive');
    await addSubscription(h, { name: 'Slack', tags: ['work', 'chat'] });
    await addSubscription(h, { name: 'Zoom', tags: ['work'] });
    const work = (await h.core.invoke('list_tags', h.owner, {})).output.items.find(
      (t) => t.name === 'work',
    );
    if (!work) throw new Error('the tag was not created');
    const before = await snapshot(h);

    const { output, auditId } = await h.core.invoke('delete_tag', h.owner, { id: work.id });
    expect(output).toEqual({ id: work.id, name: 'work', deleted: true, subscriptions_untagged: 2 });
    const left = await snapshot(h);
    expect(left.subscription_tags).toHaveLength(1);
    expect(left.subscription_tags).toEqual(
      before.subscription_tags?.filter((l) => (l as { tag_id: string }).tag_id !== work.id),
    );
    expect(left.subscriptions).toEqual(before.subscriptions);

    await h.core.invoke('undo', h.owner, { ids: [auditId] });
    const after = await snapshot(h);
    expect(after.tags).toEqual(before.tags);
    expect(after.subscription_tags).toEqual(before.subscription_tags);
  });

  it('refuses deleting an unknown tag as not found', async () => {
    const error = await failure(h.core.invoke('delete_tag', h.owner, { id: 'tag_nope' }));
    expect(error.code).toBe('not_found');
  });
});
