import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { addSubscription, failure, snapshot, subscriptionRow } from './helpers.ts';

describe('categories', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  const create = (name: string, color?: string) =>
    h.core.invoke('create_category', h.owner, color === undefined ? { name } : { name, color });

  describe('create_category', () => {
    it('creates a category with its colour in upper case and records it for undo', async () => {
      const { output, auditId } = await create('  Streaming ', '#ff8800');
      expect(output).toEqual({
        id: expect.any(String),
        name: 'Streaming',
        color: '#FF8800',
        subscription_count: 0,
      });
      expect(auditId).not.toBeNull();
      const row = await h.db.knex('categories').where({ id: output.id }).first();
      expect(row).toMatchObject({
        household_id: h.householdId,
        name: 'Streaming',
        color: '#FF8800',
      });
    });

    it('refuses a name that exists in other capitals with a translated conflict, writing nothing', async () => {
      await create('Streaming');
      const before = await snapshot(h);
      const error = await failure(create('STREAMING'));
      expect(error.code).toBe('conflict');
      expect(error.render('en')).toContain('There is already a category called "Streaming"');
      expect(error.render('es')).toContain('Ya hay una categoría llamada "Streaming"');
      expect(await snapshot(h)).toEqual(before);
    });

    it("refuses a malformed colour and a name over 80 characters in the reader's language, writing nothing", async () => {
      const spanish = await h.addMember('Luis', 'es');
      const before = await snapshot(h);
      const color = await failure(create('Music', 'orange'));
      expect(color.code).toBe('invalid_input');
      expect(color.render('en')).toContain('color: Must be a colour written #RRGGBB');
      const colorEs = await failure(
        h.core.invoke('create_category', spanish, { name: 'Música', color: '#12345' }),
      );
      expect(colorEs.render('es')).toContain('color: Debe ser un color escrito #RRGGBB');
      const long = await failure(create('x'.repeat(81)));
      expect(long.code).toBe('invalid_input');
      expect(long.issues.map((i) => i.path)).toEqual(['name']);
      const empty = await failure(create('   '));
      expect(empty.code).toBe('invalid_input');
      expect(await snapshot(h)).toEqual(before);
    });
  });

  describe('list_categories', () => {
    it('lists categories by name, ignoring capitals, with how many subscriptions each has', async () => {
      const video = await create('video');
      const music = await create('Music', '#00AA00');
      await create('apps');
      await addSubscription(h, { name: 'Netflix', category_id: video.output.id });
      await addSubscription(h, { name: 'Disney+', category_id: video.output.id });
      await addSubscription(h, { name: 'Spotify', category_id: music.output.id });
      await addSubscription(h, { name: 'Unfiled' });
      const { output } = await h.core.invoke('list_categories', h.owner, {});
      expect(output.items.map((c) => [c.name, c.subscription_count])).toEqual([
        ['apps', 0],
        ['Music', 1],
        ['video', 2],
      ]);
      expect(output.items[1]?.color).toBe('#00AA00');
    });
  });

  describe('update_category', () => {
    it('renames and recolours a category, and removes its colour with null', async () => {
      const { output: cat } = await create('Video', '#111111');
      await addSubscription(h, { name: 'Netflix', category_id: cat.id });
      const renamed = await h.core.invoke('update_category', h.owner, {
        id: cat.id,
        name: 'Streaming',
        color: '#abcdef',
      });
      expect(renamed.output).toEqual({
        id: cat.id,
        name: 'Streaming',
        color: '#ABCDEF',
        subscription_count: 1,
      });
      const cleared = await h.core.invoke('update_category', h.owner, { id: cat.id, color: null });
      expect(cleared.output).toMatchObject({ name: 'Streaming', color: null });
    });

    it('lets a category change the capitals of its own name', async () => {
      const { output: cat } = await create('streaming');
      const { output } = await h.core.invoke('update_category', h.owner, {
        id: cat.id,
        name: 'Streaming',
      });
      expect(output.name).toBe('Streaming');
    });

    it("refuses renaming to another category's name, pointing to merge, and writes nothing", async () => {
      await create('Streaming');
      const { output: video } = await create('Video');
      const before = await snapshot(h);
      const error = await failure(
        h.core.invoke('update_category', h.owner, { id: video.id, name: 'streaming' }),
      );
      expect(error.code).toBe('conflict');
      expect(error.render('en')).toContain('merge them');
      expect(await snapshot(h)).toEqual(before);
    });

    it('records nothing when nothing changes', async () => {
      const { output: cat } = await create('Video', '#111111');
      const { auditId } = await h.core.invoke('update_category', h.owner, {
        id: cat.id,
        name: 'Video',
        color: '#111111',
      });
      expect(auditId).toBeNull();
    });

    it('refuses an unknown category as not found', async () => {
      const error = await failure(
        h.core.invoke('update_category', h.owner, { id: 'cat_nope', name: 'X' }),
      );
      expect(error.code).toBe('not_found');
      expect(error.render('en')).toBe("Category cat_nope wasn't found.");
    });
  });

  describe('delete_category', () => {
    it('leaves its subscriptions without a category when reassign_to is absent, and says how many', async () => {
      const { output: cat } = await create('Video');
      const a = await addSubscription(h, { name: 'Netflix', category_id: cat.id });
      const b = await addSubscription(h, { name: 'Disney+', category_id: cat.id });
      const { output } = await h.core.invoke('delete_category', h.owner, { id: cat.id });
      expect(output).toEqual({
        id: cat.id,
        name: 'Video',
        deleted: true,
        reassigned_to: null,
        subscriptions_moved: 2,
      });
      expect(await h.db.knex('categories').where({ id: cat.id }).first()).toBeUndefined();
      expect((await subscriptionRow(h, a)).category_id).toBeNull();
      expect((await subscriptionRow(h, b)).category_id).toBeNull();
    });

    it('moves its subscriptions to the category in reassign_to', async () => {
      const { output: video } = await create('Video');
      const { output: streaming } = await create('Streaming');
      const a = await addSubscription(h, { name: 'Netflix', category_id: video.id });
      const other = await addSubscription(h, { name: 'Hulu', category_id: streaming.id });
      const { output } = await h.core.invoke('delete_category', h.owner, {
        id: video.id,
        reassign_to: streaming.id,
      });
      expect(output.reassigned_to).toEqual({ id: streaming.id, name: 'Streaming' });
      expect(output.subscriptions_moved).toBe(1);
      expect((await subscriptionRow(h, a)).category_id).toBe(streaming.id);
      expect((await subscriptionRow(h, other)).category_id).toBe(streaming.id);
      const list = await h.core.invoke('list_categories', h.owner, {});
      expect(list.output.items).toEqual([
        { id: streaming.id, name: 'Streaming', color: null, subscription_count: 2 },
      ]);
    });

    it('treats reassign_to null like absent', async () => {
      const { output: cat } = await create('Video');
      const a = await addSubscription(h, { name: 'Netflix', category_id: cat.id });
      const { output } = await h.core.invoke('delete_category', h.owner, {
        id: cat.id,
        reassign_to: null,
      });
      expect(output.subscriptions_moved).toBe(1);
      expect((await subscriptionRow(h, a)).category_id).toBeNull();
    });

    it('refuses an unknown category, an unknown reassign_to and reassigning to itself, writing nothing', async () => {
      const { output: cat } = await create('Video');
      await addSubscription(h, { name: 'Netflix', category_id: cat.id });
      const before = await snapshot(h);
      const unknown = await failure(h.core.invoke('delete_category', h.owner, { id: 'cat_nope' }));
      expect(unknown.code).toBe('not_found');
      const target = await failure(
        h.core.invoke('delete_category', h.owner, { id: cat.id, reassign_to: 'cat_gone' }),
      );
      expect(target.code).toBe('not_found');
      expect(target.render('en')).toBe("Category cat_gone wasn't found.");
      const itself = await failure(
        h.core.invoke('delete_category', h.owner, { id: cat.id, reassign_to: cat.id }),
      );
      expect(itself.code).toBe('invalid_input');
      expect(itself.issues[0]?.path).toBe('reassign_to');
      expect(await snapshot(h)).toEqual(before);
    });

    it('is destructive, previews without writing, and is undone completely', async () => {
      expect(h.core.op('delete_category').effect).toBe('destructive');
      const { output: video } = await create('Video', '#123456');
      const { output: streaming } = await create('Streaming');
      await addSubscription(h, { name: 'Netflix', category_id: video.id });
      const before = await snapshot(h);
      const preview = await h.core.invoke(
        'delete_category',
        h.owner,
        { id: video.id, reassign_to: streaming.id },
        { dryRun: true },
      );
      expect(preview.output.subscriptions_moved).toBe(1);
      expect(await snapshot(h)).toEqual(before);

      const { auditId } = await h.core.invoke('delete_category', h.owner, {
        id: video.id,
        reassign_to: streaming.id,
      });
      await h.core.invoke('undo', h.owner, { ids: [auditId] });
      const after = await snapshot(h);
      for (const table of ['categories', 'subscriptions'] as const)
        expect(after[table]).toEqual(before[table]);
    });
  });
});
