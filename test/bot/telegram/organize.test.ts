import { afterEach, describe, expect, it } from 'vitest';

import { createAssistant } from '../../../core/assistant/index.ts';
import type { TgMessage, TgUser } from '../../fakes/telegramBotApi.ts';
import { scripted } from '../../fakes/llmScript.ts';
import { type FakeLlm, startLlmServer } from '../../fakes/llmServer.ts';
import { createWorld, seedHousehold, type World } from '../harness.ts';

/**
 * Organizing, files and the assistant set-up in Telegram with no model: the real bot against the
 * fake Bot API. Exports arrive as documents (multipart uploads), an export sent back with the
 * caption /import is previewed and confirmed, and the message holding an API key is deleted.
 */

describe('organizing from Telegram', () => {
  let w: World;
  let llm: FakeLlm | undefined;
  afterEach(async () => {
    await w.close();
    await llm?.close();
  });

  const db = () => w.cores[0]!.db.knex;

  async function tapAndWait(user: TgUser, message: TgMessage, label: string | RegExp) {
    await w.tg.tap(user, message, label);
    return w.tg.botMessages(user.id).at(-1)!;
  }

  it('creates a category, deletes it from its card after a preview, and Undo brings it back', async () => {
    w = await createWorld();
    const ana = w.tg.user(1001, 'Ana', 'en');
    const { actor } = await seedHousehold(w.cores[0]!, ana);
    await w.cores[0]!.invoke('create_subscription', actor, {
      name: 'Netflix',
      amount: '15.99',
      currency: 'EUR',
      category: 'TV',
    });
    await w.start();
    const list = await w.tg.ask(ana, '/categories');
    expect(list.text).toContain('TV — 1 subscription');
    const card = await tapAndWait(ana, list, 'TV');
    expect(card.text).toContain('Netflix');
    await w.tg.tap(ana, card, /Delete/);
    const preview = w.tg.message(ana.id, card.message_id)!;
    expect(preview.text).toContain(
      'Its 1 subscription will be left without a category (it is not deleted).',
    );
    await w.tg.tap(ana, preview, /Confirm/);
    expect(await db()('categories')).toHaveLength(0);
    const done = w.tg.message(ana.id, card.message_id)!;
    expect(done.text).toContain('Deleted the category TV');
    await w.tg.tap(ana, done, /Undo/);
    expect(await db()('categories').pluck('name')).toEqual(['TV']);
    expect(await db()('subscriptions').whereNotNull('category_id')).toHaveLength(1);
  });

  it('en español: /export envía el JSON y el CSV como documentos, y el JSON enviado con /import se importa tras confirmar', async () => {
    w = await createWorld();
    const ana = w.tg.user(1001, 'Ana', 'es');
    const luis = w.tg.user(1002, 'Luis', 'es');
    const { actor } = await seedHousehold(w.cores[0]!, ana, { language: 'es' });
    await seedHousehold(w.cores[0]!, luis, { language: 'es' });
    await w.cores[0]!.invoke('create_subscription', actor, {
      name: 'Spotify',
      amount: '10.99',
      currency: 'EUR',
    });
    await w.start();
    const before = w.tg.botMessages(ana.id).length;
    await w.tg.sendText(ana, '/export');
    await w.tg.waitForMessages(ana.id, before + 3);
    const card = w.tg.botMessages(ana.id)[before]!;
    expect(card.text).toContain('Tu exportación: 1 suscripción');
    const docs = w.tg.botDocuments(ana.id);
    expect(docs.map((d) => d.name)).toEqual([
      'exhale-2026-03-02.json',
      'exhale-subscriptions-2026-03-02.csv',
    ]);
    expect(docs[1]!.data.toString('utf8')).toContain('Spotify');

    // Luis imports Ana's file into his own household.
    const start = w.tg.botMessages(luis.id).length;
    await w.tg.sendDocument(luis, docs[0]!.data, {
      name: 'ana.json',
      mimeType: 'application/json',
      caption: '/import',
    });
    const [preview] = (await w.tg.waitForMessages(luis.id, start + 1)).slice(start);
    expect(preview!.text).toContain('¿Importar 1 suscripción?');
    expect(preview!.text).toContain('Se añadirá 1 suscripción.');
    await w.tg.tap(luis, preview!, /Confirmar/);
    const luisHousehold = (await db()('members').where({ name: 'Luis' }).first()) as {
      household_id: string;
    };
    expect(
      await db()('subscriptions').where({ household_id: luisHousehold.household_id }).pluck('name'),
    ).toEqual(['Spotify']);
    const done = w.tg.message(luis.id, preview!.message_id)!;
    await w.tg.tap(luis, done, /Deshacer/);
    expect(
      await db()('subscriptions').where({ household_id: luisHousehold.household_id }),
    ).toHaveLength(0);
  });

  it('deletes the message holding the API key as soon as it is read, and a test call says it works', async () => {
    llm = await startLlmServer(scripted('openai', [{ text: 'OK' }]));
    w = await createWorld();
    const ana = w.tg.user(1001, 'Ana', 'en');
    await seedHousehold(w.cores[0]!, ana);
    await w.start({ assistant: createAssistant({ core: w.cores[0]!, config: {} }) });
    const card = await w.tg.ask(ana, '/assistant');
    expect(card.text).toContain('It is off');
    const url = await tapAndWait(ana, card, 'OpenAI-compatible');
    expect(url.text).toContain('openrouter.ai');
    await w.tg.ask(ana, llm.url);
    await w.tg.ask(ana, 'gpt-4.1-mini');
    const before = w.tg.botMessages(ana.id).length;
    const update = await w.tg.sendText(ana, 'sk-test-secret-key-123');
    const keyMessage = update.message!;
    const [saved] = (await w.tg.waitForMessages(ana.id, before + 1)).slice(before);
    expect(w.tg.message(ana.id, keyMessage.message_id)).toBeUndefined();
    expect(saved!.text).toContain('I deleted your message with the key.');
    expect(saved!.text).toContain('It works: gpt-4.1-mini answered.');
    expect(llm.requests[0]!.headers.authorization).toBe('Bearer sk-test-secret-key-123');
    for (const call of w.tg.calls.filter((c) => c.method !== 'getUpdates'))
      if (call.method !== 'deleteMessage')
        expect(JSON.stringify(call.params)).not.toContain('sk-test-secret-key-123');
  });
});
