import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Reply } from '../../../../core/chat/index.ts';
import {
  createTestHousehold,
  TEST_DIALECT,
  type TestHousehold,
} from '../../../helpers/testCore.ts';
import { ChatDriver } from './chatDriver.ts';

const labels = (reply: Reply): string[] => (reply.buttons ?? []).flat().map((b) => b.label);

describe(`/activity in chat (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('labels each entry’s button by what pressing it does: Redo on an undo, Undo on a change', async () => {
    await h.core.invoke('create_category', h.owner, { name: 'Software' });
    await h.core.invoke('create_category', h.owner, { name: 'Games' });
    await h.core.invoke('undo', h.owner, {});
    const chat = new ChatDriver(h.core, h.owner);
    // 1: the undo (Games taken back); 2: Games, already undone; 3: Software.
    const list = await chat.say('/activity');
    expect(labels(list)).toEqual(['🔁 Redo 1', '↩️ Undo 3']);
    await chat.press('Redo 1');
    expect(await h.db.knex('categories').orderBy('name').pluck('name')).toEqual([
      'Games',
      'Software',
    ]);
  });

  it('says Rehacer in Spanish', async () => {
    const luis = await h.addMember('Luis', 'es');
    await h.core.invoke('create_tag', luis, { name: 'casa' });
    await h.core.invoke('undo', luis, {});
    const chat = new ChatDriver(h.core, luis, { name: 'Luis' });
    expect(labels(await chat.say('/activity'))).toContain('🔁 Rehacer 1');
  });
});
