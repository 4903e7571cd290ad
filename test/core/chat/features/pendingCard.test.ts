import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Reply } from '../../../../core/chat/index.ts';
import {
  createTestHousehold,
  TEST_DIALECT,
  type TestHousehold,
} from '../../../helpers/testCore.ts';
import { ChatDriver } from './chatDriver.ts';

const text = ChatDriver.text;
const labels = (reply: Reply): string[] => (reply.buttons ?? []).flat().map((b) => b.label);

describe(`a change previewed from chat (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('offers Confirm and Discard when the change would change something', async () => {
    await h.core.invoke('create_token', h.owner, { name: 'Claude', scope: 'read' });
    const chat = new ChatDriver(h.core, h.owner);
    await chat.say('/tokens');
    const card = await chat.press('Revoke Claude');
    expect(text(card)).toContain('revoked on — → Mon, 2 Mar 2026, 11:00');
    // Revoking is destructive: marked, warned, and confirmed with a button that says so.
    expect(card.card?.title).toBe('⚠️ Revoke the token Claude?');
    expect(text(card)).toContain('This removes data');
    expect(labels(card)).toEqual(['⚠️ Confirm', '✖️ Discard']);
  });

  it('offers only Discard when nothing would change, and Discard changes nothing', async () => {
    const token = await h.core.invoke('create_token', h.owner, { name: 'Claude', scope: 'read' });
    const chat = new ChatDriver(h.core, h.owner);
    await chat.say('/tokens');
    // Revoked elsewhere (the web app) before the button on the old list is pressed.
    await h.core.invoke('revoke_token', h.owner, { id: token.output.id });
    const card = await chat.press('Revoke Claude');
    expect(text(card)).toContain('Nothing would change: it is already so.');
    expect(labels(card)).toEqual(['✖️ Discard']);
    // Nothing is lost either: neither marked nor warned.
    expect(card.card?.title).toBe('📝 Revoke the token Claude?');
    expect(text(card)).not.toContain('This removes data');
    const audited = await h.db.knex('audit_entries').count({ n: '*' }).first();
    expect(text(await chat.press('Discard'))).toContain('Nothing was changed.');
    expect(await h.db.knex('audit_entries').count({ n: '*' }).first()).toEqual(audited);
  });
});
