import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { isOpError } from '../../../core/errors/index.ts';
import { createTestHousehold, TEST_DIALECT, type TestHousehold } from '../../helpers/testCore.ts';
import { ChatDriver } from './features/chatDriver.ts';

/** Defect 5's leftovers in chat: Spanish readers see amounts in their own notation. */
describe(`Spanish amounts in chat and in refusals (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
    await h.core.invoke('update_member', h.owner, { id: h.ownerId, language: 'es' });
  });
  afterEach(async () => h.close());

  it('says the other reading of "1.200" with a decimal comma, and that reading is what /add then takes', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    const preview = ChatDriver.text(await chat.say('/add Gimnasio 1.200 mensual 5'));
    expect(preview).toContain('He leído el precio como 1200 EUR. Si querías decir 1,20,');
    expect(preview).not.toContain('1.20');
    const again = ChatDriver.text(await chat.say('/add Gimnasio 1,20 mensual 5'));
    expect(again).toContain('1,20 EUR · cada mes');
  });

  it('says in the amount refusal that the decimal mark there is a point, matching its example', async () => {
    const error: unknown = await h.core
      .invoke('create_subscription', { ...h.owner, locale: 'es' }, { name: 'X', amount: '15,99' })
      .catch((e: unknown) => e);
    if (!isOpError(error)) throw new Error('expected a refusal');
    const text = error.render('es');
    expect(text).toContain('con punto decimal, como "15.99" (aquí no vale "15,99")');
  });
});
