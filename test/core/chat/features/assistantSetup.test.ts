import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createAssistant } from '../../../../core/assistant/index.ts';
import type { SentRef } from '../../../../core/chat/index.ts';
import { dumpDatabase } from '../../../helpers/dump.ts';
import {
  createTestHousehold,
  TEST_DIALECT,
  type TestHousehold,
} from '../../../helpers/testCore.ts';
import { scripted } from '../../../fakes/llmScript.ts';
import { type FakeLlm, queue, startLlmServer } from '../../../fakes/llmServer.ts';
import { RecordingChannel } from '../recordingChannel.ts';
import { ChatDriver } from './chatDriver.ts';

const text = ChatDriver.text;
const KEY = 'sk-ant-test-0123456789abcdef';

/** A chat app's channel: it can delete the member's messages, and says which it deleted. */
class DeletingChannel extends RecordingChannel {
  readonly deleted: SentRef[] = [];
  async deleteMessage(ref: SentRef): Promise<boolean> {
    this.deleted.push(ref);
    return true;
  }
}

const settingsRow = (h: TestHousehold) =>
  h.db.knex('assistant_settings').where({ household_id: h.householdId }).first();

describe(`the assistant set-up in chat (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  let server: FakeLlm;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => {
    await server?.close();
    await h.close();
  });

  it('turns on a local server (address, model) with buttons and answers, and a test call says it works', async () => {
    server = await startLlmServer(scripted('openai', [{ text: 'OK' }]));
    const assistant = createAssistant({ core: h.core, config: {} });
    const chat = new ChatDriver(h.core, h.owner, { assistant });
    const card = await chat.say('/assistant');
    expect(text(card)).toContain('It is off');
    expect(text(await chat.press('Local'))).toContain('http://localhost:11434');
    expect(text(await chat.say(server.url))).toContain('Which model?');
    const done = await chat.say('llama3.2');
    expect(text(done)).toContain('Assistant settings saved');
    expect(text(done)).toContain('It works: llama3.2 answered.');
    expect(await settingsRow(h)).toMatchObject({
      provider: 'openai',
      model: 'llama3.2',
      base_url: server.url,
    });
    expect(server.requests).toHaveLength(1);
    expect(
      await h.db.knex('audit_entries').where({ op: 'update_assistant_settings' }),
    ).toHaveLength(1);
    await chat.press('Undo');
    expect(await assistant.isConfigured(h.householdId)).toBe(false);
  });

  it('takes an Anthropic key, deletes the message holding it at once and never shows it again', async () => {
    server = await startLlmServer(scripted('anthropic', [{ text: 'OK' }]));
    const assistant = createAssistant({ core: h.core, config: { baseUrl: server.url } });
    const channel = new DeletingChannel();
    const chat = new ChatDriver(h.core, h.owner, { assistant, channel });
    await chat.say('/assistant');
    await chat.press('Anthropic');
    expect(text(await chat.say('claude-sonnet-4-5'))).toContain('send the API key');
    const where = { chatId: 'c', messageId: 'member-41' };
    const done = await chat.say(KEY, where);
    expect(channel.deleted).toEqual([where]);
    expect(text(done)).toContain('I deleted your message with the key.');
    expect(text(done)).toContain('It works: claude-sonnet-4-5 answered.');
    expect(server.requests[0]?.headers['x-api-key']).toBe(KEY);
    expect(JSON.stringify(channel.messages)).not.toContain(KEY);
    expect(await dumpDatabase(h.db)).not.toMatch(/audit[\s\S]*sk-ant-test/);
    const again = await chat.say('/assistant');
    expect(text(again)).toContain('An API key is stored (it is never shown).');
    expect(JSON.stringify(channel.messages)).not.toContain(KEY);
  });

  it('en español: dice por qué falla una clave rechazada, y Probarlo vuelve a comprobarlo', async () => {
    await h.core.invoke('update_member', h.owner, { id: h.ownerId, language: 'es' });
    server = await startLlmServer(
      queue(
        {
          status: 401,
          headers: { 'content-type': 'application/json' },
          body: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
        },
        {
          status: 401,
          headers: { 'content-type': 'application/json' },
          body: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
        },
      ),
    );
    const assistant = createAssistant({
      core: h.core,
      config: { baseUrl: server.url },
      log: () => undefined,
    });
    const chat = new ChatDriver(h.core, h.owner, { assistant });
    await chat.say('/assistant');
    await chat.press('Anthropic');
    await chat.say('claude-sonnet-4-5');
    const done = await chat.say('sk-ant-wrong');
    expect(text(done)).toContain('Aquí no puedo borrar mensajes');
    expect(text(done)).toMatch(/Aún no funciona: .+/);
    await chat.say('/assistant');
    const tested = await chat.press('Probarlo');
    expect(text(tested)).toMatch(/Aún no funciona/);
    expect(server.requests).toHaveLength(2);
  });

  it('tells a member who is not the owner who can turn it on, and in a group to use a private chat', async () => {
    const luis = await h.addMember('Luis');
    const before = await dumpDatabase(h.db);
    const chat = new ChatDriver(h.core, luis, { name: 'Luis' });
    expect(text(await chat.say('/assistant'))).toContain(
      "Only the household's owner, Ana, can turn the assistant on",
    );
    const group = new ChatDriver(h.core, h.owner, { group: true });
    expect(text(await group.say('/assistant'))).toContain('only works in a private chat');
    expect(await dumpDatabase(h.db)).toBe(before);
  });

  it('offers the owner a way to turn it on from the reply to a file it cannot read without it', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    const bytes = Buffer.from('Dear Ana, thanks for the lovely dinner.');
    const reply = await chat.send({
      name: 'letter.txt',
      size: bytes.byteLength,
      download: () => Promise.resolve(bytes),
    });
    expect(text(reply)).toContain('/assistant in a private chat');
    expect(text(await chat.press('Turn the assistant on'))).toContain(
      'Choose where the model runs',
    );
    const luis = new ChatDriver(h.core, await h.addMember('Luis'), { name: 'Luis' });
    const theirs = await luis.send({
      name: 'letter.txt',
      size: bytes.byteLength,
      download: () => Promise.resolve(bytes),
    });
    expect((theirs.buttons ?? []).flat()).toEqual([]);
  });

  it('stores nothing until the last answer: a set-up abandoned half-way leaves the assistant off', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    await chat.say('/assistant');
    await chat.press('OpenAI');
    await chat.say('https://openrouter.ai/api/v1');
    await chat.say('/list');
    expect(await settingsRow(h)).toBeUndefined();
  });
});
