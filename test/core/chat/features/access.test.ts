import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  createTestHousehold,
  TEST_DIALECT,
  type TestHousehold,
} from '../../../helpers/testCore.ts';
import { ChatDriver } from './chatDriver.ts';

const text = ChatDriver.text;

describe(`/invite in chat (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold({ timeZone: 'America/New_York' });
  });
  afterEach(async () => h.close());

  it('says until when the invite works, in the household’s time zone, never as stored', async () => {
    // A week from 02:30 UTC on 3 March, which is still the evening of 2 March in New York.
    h.clock.now = new Date('2026-03-03T02:30:00.000Z');
    const reply = await new ChatDriver(h.core, h.owner).say('/invite');
    expect(text(reply)).toContain('Works once, until Mon, 9 Mar 2026, 22:30.');
    expect(text(reply)).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });
});
