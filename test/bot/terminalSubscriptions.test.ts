import { PassThrough } from 'node:stream';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { runTerminalChat } from '../../bot/terminal/index.ts';
import { chatLog } from '../../bot/terminal/log.ts';
import type { Actor } from '../../core/kernel/actor.ts';
import { createTestHousehold, type TestHousehold } from '../helpers/testCore.ts';

/** Runs `exhale chat`'s terminal session with these lines typed in; returns what it printed. */
async function session(h: TestHousehold, actor: Actor, lines: string[]): Promise<string> {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const done = runTerminalChat({ core: h.core, actor, input, output, logs: chatLog(output) });
  for (const line of lines) input.write(`${line}\n`);
  input.end();
  await done;
  return printed;
}

/**
 * The same subscription commands and cards in the terminal chat: buttons as stable numbers, each
 * change checked in the database, in English and Spanish.
 */
describe('the terminal chat manages a subscription', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  const netflix = () => h.db.knex('subscriptions').where({ name: 'Netflix' }).first();

  it('pauses, changes the price from a date, deletes after the preview and undoes it, by number', async () => {
    const printed = await session(h, h.owner, [
      '/add Netflix 15.99 EUR monthly 5', // [1] Undo [2] Manage
      '/pause netflix', // [3] Undo
      '/resume Netflix', // [4] Undo
      '/edit Netflix price 17.99 from April', // [5] Confirm [6] Discard
      '5', // [7] Undo
      '/delete netflix', // [8] Yes, delete [9] Discard
      '8', // [10] Undo
      '10',
    ]);
    expect(printed).toContain('┌ ✅ Paused Netflix');
    expect(printed).toContain('┌ ✅ Resumed Netflix');
    expect(printed).toContain(
      '┌ 📝 Change Netflix?\n│ ✏️ Netflix: amount 15.99 EUR → 17.99 EUR\n│ Price history: 1 added\n│ From Wed, 1 Apr 2026\n└\n[5] ✅ Confirm   [6] ✖️ Discard',
    );
    expect(printed).toContain(
      '┌ ⚠️ Delete Netflix?\n│ 🗑 Subscription: Netflix · 17.99 EUR · every month\n│ Price history: 1 removed\n└\n[8] 🗑️ Yes, delete   [9] ✖️ Discard',
    );
    expect(printed).toContain(
      '┌ ✅ Updated Netflix\n│ 15.99 EUR · every month\n│ Next charge: Thu, 5 Mar 2026\n│ The new price applies from Wed, 1 Apr 2026.',
    );
    expect(printed).toContain(
      '┌ ✅ Deleted the subscription\n│ 🗑 Subscription: Netflix · 17.99 EUR · every month\n│ Price history: 1 removed\n└\n[10] ↩️ Undo',
    );
    expect(printed).toContain('┌ ↩️ Undone\n│ Deleted Netflix');
    expect(await netflix()).toMatchObject({ status: 'active', amount_minor: 1799 });
    expect(await h.db.knex('price_changes')).toMatchObject([
      { effective_date: '2026-04-01', new_amount_minor: 1799 },
    ]);
    const ops = (await h.db.knex('audit_entries').orderBy('seq')).map((e: { op: string }) => e.op);
    expect(ops.slice(-6)).toEqual([
      'create_subscription',
      'pause_subscription',
      'resume_subscription',
      'update_subscription',
      'delete_subscription',
      'undo',
    ]);
  });

  it('speaks Spanish: the card, Edit by conversation and a charge marked paid with its real amount', async () => {
    const luis = await h.addMember('Luis', 'es');
    const printed = await session(h, luis, [
      '/add Netflix 15,99 EUR mensual 5', // [1] Deshacer [2] Gestionar
      '2', // the card: [3] Editar [4] Pagado [5] Saltar [6] Pausar [7] Cancelarla [8] Borrar …
      '3', // Edit: [14] Nombre … (the card's [13] is Privacidad: Netflix is Luis's)
      '14',
      'Netflix Familiar',
      '/paid netflix familiar', // [26] Confirmar [27] Descartar [28] Otro importe ([25] Deshacer)
      '28',
      '18,40',
      '29',
    ]);
    expect(printed).toContain(
      '┌ 📄 Netflix\n│ 15,99 EUR · cada mes\n│ Próximo cobro: jue, 5 mar 2026\n│ Activa\n└\n[3] ✏️ Editar   [4] ✅ Pagado   [5] ⏭️ Saltar\n[6] ⏸️ Pausar   [7] 🚪 Cancelarla   [8] 🗑️ Borrar',
    );
    expect(printed).toContain('[11] 💳 Método de pago   [12] 👥 Reparto\n[13] 🔒 Privacidad');
    expect(printed).toContain('┌ ✏️ Editar Netflix\n│ ¿Qué quieres cambiar?\n└\n[14] Nombre');
    expect(printed).toContain('¿Cómo debe llamarse Netflix?');
    expect(printed).toContain('┌ ✅ Suscripción actualizada: Netflix Familiar');
    expect(printed).toContain('¿Cuánto fue el cargo de Netflix Familiar del jue, 5 mar 2026?');
    expect(printed).toContain(
      '┌ ✅ Cobro de Netflix Familiar marcado como pagado\n│ 18,40 EUR · jue, 5 mar 2026\n│ Pagado',
    );
    expect(await h.db.knex('charges')).toMatchObject([
      { due_date: '2026-03-05', status: 'paid', amount_minor: 1840 },
    ]);
  });
});
