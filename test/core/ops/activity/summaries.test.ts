import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Actor } from '../../../../core/kernel/actor.ts';
import { OpError } from '../../../../core/errors/index.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

describe('activity summaries', () => {
  let h: TestHousehold;
  let luis: Actor;
  beforeEach(async () => {
    h = await createTestHousehold();
    luis = await h.addMember('Luis', 'es');
  });
  afterEach(async () => h.close());

  const summaries = async (actor: Actor) =>
    (await h.core.invoke('list_activity', actor, {})).output.items.map((e) => e.summary);

  it("lists each change in the reader's language", async () => {
    await h.core.invoke('create_subscription', h.owner, { name: 'Netflix', amount: '15.99' });
    await h.core.invoke('create_category', luis, { name: 'Ocio' });
    expect(await summaries(luis)).toEqual([
      'Se creó la categoría Ocio',
      'Se añadió Netflix',
      'Luis se unió al hogar',
      'Se creó una invitación',
      'Se creó el hogar Test home',
    ]);
    expect(await summaries(h.owner)).toEqual([
      'Created category Ocio',
      'Added Netflix',
      'Luis joined',
      'Created an invite',
      'Created household Test home',
    ]);
  });

  it('stores the English line for logs and the text to render for readers', async () => {
    const paid = await h.core.invoke('create_subscription', luis, {
      name: 'Gym',
      amount: '30',
      first_charge_date: '2026-02-01',
    });
    const { auditId } = await h.core.invoke('mark_charge_paid', luis, {
      subscription_id: paid.output.id,
      due_date: '2026-02-01',
    });
    const row = (await h.db.knex('audit_entries').where({ id: auditId }).first()) as {
      summary: string;
      summary_text: string;
    };
    expect(row.summary).toBe('Marked Gym paid (30.00 EUR, Sun, 1 Feb 2026)');
    expect(JSON.parse(row.summary_text)).toEqual({
      key: 'activity.mark_charge_paid',
      params: { name: 'Gym', amount: '30.00', currency: 'EUR', date: '2026-02-01' },
    });
    expect((await summaries(luis))[0]).toBe(
      'Se marcó como pagado el cobro de Gym (30,00 EUR, dom, 1 feb 2026)',
    );
  });

  it("tells what an undo undid in the reader's language, down a redo chain", async () => {
    const added = await h.core.invoke('create_subscription', luis, {
      name: 'Netflix',
      amount: '15.99',
    });
    const undone = await h.core.invoke('undo', luis, { ids: [added.auditId] });
    expect(undone.output.undone).toEqual([
      {
        id: added.auditId,
        summary: 'Se añadió Netflix',
        effect: 'undone',
        changes: ['Se añadió Netflix'],
      },
    ]);
    const redone = await h.core.invoke('undo', luis, { ids: [undone.auditId] });
    expect(redone.output.undone[0]).toMatchObject({
      summary: 'Se deshizo: Se añadió Netflix',
      // Undoing the undo brings the subscription back: a redo of the change itself.
      effect: 'redone',
      changes: ['Se añadió Netflix'],
    });
    // Each line names the change once, never the undo it undid ("Undid: Undid: …").
    expect((await summaries(luis)).slice(0, 2)).toEqual([
      'Se rehízo: Se añadió Netflix',
      'Se deshizo: Se añadió Netflix',
    ]);
    expect((await summaries(h.owner)).slice(0, 2)).toEqual([
      'Redone: Added Netflix',
      'Undone: Added Netflix',
    ]);
    const row = (await h.db.knex('audit_entries').where({ id: redone.auditId }).first()) as {
      summary: string;
    };
    expect(row.summary).toBe('Redone: Added Netflix');
    const again = await h.core.invoke('undo', luis, { ids: [redone.auditId] });
    expect(again.output.undone[0]).toMatchObject({
      effect: 'undone',
      changes: ['Se añadió Netflix'],
    });
    expect((await summaries(h.owner))[0]).toBe('Undone: Added Netflix');
    // What undoing each entry would do, for a screen's Undo/Redo label: a change and a redo are
    // taken back; an undo brings its change back.
    const listed = (await h.core.invoke('list_activity', h.owner, { limit: 4 })).output.items;
    expect(listed.map((e) => [e.summary, e.undo_effect])).toEqual([
      ['Undone: Added Netflix', 'redone'],
      ['Redone: Added Netflix', 'undone'],
      ['Undone: Added Netflix', 'redone'],
      ['Added Netflix', 'undone'],
    ]);
  });

  it("names an undone change of language in the reader's words, once", async () => {
    await h.core.invoke('update_member', h.owner, { id: h.ownerId, language: 'es' });
    const changed = await h.core.invoke('update_member', h.owner, {
      id: h.ownerId,
      language: 'en',
    });
    expect((await summaries(h.owner))[0]).toBe("Changed Ana's language to English");
    const undone = await h.core.invoke('undo', h.owner, { ids: [changed.auditId] });
    expect(undone.output.undone[0]?.changes).toEqual(["Ana's language back to Spanish"]);
    expect((await summaries(h.owner))[0]).toBe("Undone: Ana's language back to Spanish");
    expect((await summaries(luis))[0]).toBe('Se deshizo: idioma de Ana de vuelta a español');
    const row = (await h.db.knex('members').where({ id: h.ownerId }).first()) as {
      language: string;
    };
    expect(row.language).toBe('es');
  });

  it('refuses a redo pressed twice naming the change, not the undo', async () => {
    const added = await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
    });
    const undone = await h.core.invoke('undo', h.owner, { ids: [added.auditId] });
    await h.core.invoke('undo', h.owner, { ids: [undone.auditId] });
    await expect(h.core.invoke('undo', h.owner, { ids: [undone.auditId] })).rejects.toMatchObject({
      code: 'conflict',
      message: '"Added Netflix" is already back.',
    });
  });

  it("names the change in the caller's language when it refuses to undo it", async () => {
    const mine = await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
    });
    const notYours = await h.core
      .invoke('undo', luis, { ids: [mine.auditId] })
      .catch((e: unknown) => e);
    expect(notYours).toBeInstanceOf(OpError);
    expect((notYours as OpError).render('es')).toBe(
      'Solo el propietario o quien lo hizo puede deshacer "Se añadió Netflix".',
    );
    const his = await h.core.invoke('create_tag', luis, { name: 'tv' });
    await h.core.invoke('undo', luis, { ids: [his.auditId] });
    const twice = await h.core
      .invoke('undo', luis, { ids: [his.auditId] })
      .catch((e: unknown) => e);
    expect((twice as OpError).render('es')).toBe('"Se creó la etiqueta tv" ya se ha deshecho.');
  });
});
