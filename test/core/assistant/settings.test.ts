import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { createAssistant } from '../../../core/assistant/index.ts';
import { overridesFromEnv } from '../../../core/store/repos/assistantSettings.ts';
import { assistantActor } from '../../../core/assistant/tools.ts';
import { getAssistantSettings } from '../../../core/ops/assistant/getAssistantSettings.ts';
import { updateAssistantSettings } from '../../../core/ops/assistant/updateAssistantSettings.ts';
import { dumpDatabase } from '../../helpers/dump.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { scripted } from '../../fakes/llmScript.ts';
import { startLlmServer } from '../../fakes/llmServer.ts';
import { ensureAssistantTables } from './helpers.ts';

const KEY = 'sk-ant-secret-0123456789';
const ENV = [
  'EXHALE_ASSISTANT_PROVIDER',
  'EXHALE_ASSISTANT_MODEL',
  'EXHALE_ASSISTANT_API_KEY',
  'EXHALE_ASSISTANT_BASE_URL',
];

let h: TestHousehold;
beforeEach(async () => {
  for (const name of ENV) vi.stubEnv(name, '');
  h = await createTestHousehold();
  await ensureAssistantTables(h.db);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await h.close();
});

describe('the assistant settings', () => {
  it('are off until the owner sets a provider and a model, and never show the key', async () => {
    expect((await h.core.invoke(getAssistantSettings, h.owner, {})).output).toMatchObject({
      enabled: false,
      provider: null,
      api_key_set: false,
    });
    const set = await h.core.invoke(updateAssistantSettings, h.owner, {
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      api_key: KEY,
      prices: { 'my-model': { input: '1.5', output: '2' } },
    });
    expect(set.output).toEqual({
      enabled: true,
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      base_url: null,
      api_key_set: true,
      from_environment: [],
      prices: { 'my-model': { input: '1.5', output: '2' } },
    });
    const outputs = [
      set.output,
      (await h.core.invoke(getAssistantSettings, h.owner, {})).output,
      (await h.core.invoke('list_activity', h.owner, {})).output,
      (await h.core.invoke('export_data', h.owner, {})).output,
    ];
    expect(JSON.stringify(outputs)).not.toContain(KEY);
  });

  it('are for the owner only, and neither the assistant nor MCP is offered the update', async () => {
    const luis = await h.addMember('Luis');
    await expect(
      h.core.invoke(updateAssistantSettings, luis, { model: 'x' }),
    ).rejects.toMatchObject({ code: 'forbidden' });
    await expect(h.core.invoke(getAssistantSettings, luis, {})).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(
      h.core.invoke(updateAssistantSettings, assistantActor(h.owner), { model: 'x' }),
    ).rejects.toMatchObject({ code: 'insufficient_scope' });
    expect(updateAssistantSettings.exclude?.mcp).toBeDefined();
    expect(updateAssistantSettings.exclude?.assistant).toBeDefined();
  });

  it("refuses a base URL that is not http(s) and a price that is not a decimal string, in the reader's language", async () => {
    await expect(
      h.core.invoke(updateAssistantSettings, h.owner, { base_url: 'ftp://x' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      issues: [{ path: 'base_url', message: 'The base URL must be an http or https address.' }],
    });
    await expect(
      h.core.invoke(
        updateAssistantSettings,
        { ...h.owner, locale: 'es' },
        { prices: { m: { input: 'cheap', output: '1' } } },
      ),
    ).rejects.toMatchObject({
      issues: [
        {
          path: 'prices.m.input',
          message:
            'Un precio son dólares por millón de tokens como cadena decimal, por ejemplo "3.00".',
        },
      ],
    });
  });

  it('change nothing in a dry run, and undo restores them exactly', async () => {
    await h.core.invoke(updateAssistantSettings, h.owner, {
      provider: 'openai',
      model: 'gpt-4.1-mini',
    });
    const before = await dumpDatabase(h.db, { except: ['audit_entries'] });
    const dry = await h.core.invoke(
      updateAssistantSettings,
      h.owner,
      { model: 'llama3.2', base_url: 'http://localhost:11434', api_key: null },
      { dryRun: true },
    );
    expect(dry.changes).toHaveLength(1);
    expect(await dumpDatabase(h.db, { except: ['audit_entries'] })).toBe(before);
    const real = await h.core.invoke(updateAssistantSettings, h.owner, {
      model: 'llama3.2',
      base_url: 'http://localhost:11434',
      api_key: null,
    });
    expect(real.output).toMatchObject({ model: 'llama3.2', base_url: 'http://localhost:11434' });
    await h.core.invoke('undo', h.owner, { ids: [real.auditId] });
    expect(await dumpDatabase(h.db, { except: ['audit_entries'] })).toBe(before);
  });

  it('keep the API key out of the audit entry, the dry run and every output, yet send it to the model', async () => {
    const server = await startLlmServer(scripted('openai', [{ text: 'Hi.' }]));
    try {
      const input = {
        provider: 'openai',
        model: 'gpt-4.1-mini',
        base_url: server.url,
        api_key: KEY,
      } as const;
      const before = await dumpDatabase(h.db);
      const dry = await h.core.invoke(updateAssistantSettings, h.owner, input, { dryRun: true });
      expect(await dumpDatabase(h.db)).toBe(before);
      expect(dry.output.api_key_set).toBe(true);
      expect(JSON.stringify(dry)).not.toContain(KEY);

      const real = await h.core.invoke(updateAssistantSettings, h.owner, input);
      expect(real.output).toEqual(dry.output);
      expect(real.changes).toEqual(dry.changes);
      expect(JSON.stringify(real)).not.toContain(KEY);
      const audit = (await h.db.knex('audit_entries').where({ id: real.auditId }).first()) as {
        input: string;
        changes: string;
      };
      expect(audit.changes).toContain('gpt-4.1-mini');
      expect(audit.changes).not.toContain(KEY);
      expect(JSON.parse(audit.input)).toMatchObject({ api_key: '[hidden]' });
      expect(JSON.stringify(audit)).not.toContain(KEY);
      expect(
        JSON.stringify((await h.core.invoke(getAssistantSettings, h.owner, {})).output),
      ).not.toContain(KEY);
      expect(await h.db.knex('assistant_secrets').select('household_id', 'api_key')).toEqual([
        { household_id: h.householdId, api_key: KEY },
      ]);

      const assistant = createAssistant({ core: h.core, config: {} });
      await assistant.ask(h.owner, { text: 'hi' });
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    } finally {
      await server.close();
    }
  });

  it('remove the key with null, and a dry run of that keeps it', async () => {
    await h.core.invoke(updateAssistantSettings, h.owner, { model: 'm', api_key: KEY });
    const dry = await h.core.invoke(
      updateAssistantSettings,
      h.owner,
      { api_key: null },
      { dryRun: true },
    );
    expect(dry.output.api_key_set).toBe(false);
    expect((await h.core.invoke(getAssistantSettings, h.owner, {})).output.api_key_set).toBe(true);
    const real = await h.core.invoke(updateAssistantSettings, h.owner, { api_key: null });
    expect(real.output).toEqual(dry.output);
    expect((await h.core.invoke(getAssistantSettings, h.owner, {})).output.api_key_set).toBe(false);
    expect(await h.db.knex('assistant_secrets').select('*')).toEqual([]);
  });

  it('undo restores every field but the key, which stays as last set', async () => {
    const server = await startLlmServer(scripted('openai', [{ text: 'One.' }, { text: 'Two.' }]));
    try {
      const first = await h.core.invoke(updateAssistantSettings, h.owner, {
        provider: 'openai',
        model: 'first-model',
        base_url: server.url,
        api_key: 'sk-first-key',
      });
      const second = await h.core.invoke(updateAssistantSettings, h.owner, {
        model: 'second-model',
        api_key: KEY,
      });
      await h.core.invoke('undo', h.owner, { ids: [second.auditId] });
      expect((await h.core.invoke(getAssistantSettings, h.owner, {})).output).toMatchObject({
        enabled: true,
        model: 'first-model',
        api_key_set: true,
      });
      const assistant = createAssistant({ core: h.core, config: {} });
      await assistant.ask(h.owner, { text: 'hi' });
      expect(server.requests[0]!.body.model).toBe('first-model');
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);

      await h.core.invoke('undo', h.owner, { ids: [first.auditId] });
      expect(await h.db.knex('assistant_settings').select('*')).toEqual([]);
      expect((await h.core.invoke(getAssistantSettings, h.owner, {})).output).toMatchObject({
        enabled: false,
        provider: null,
        model: null,
        api_key_set: true,
      });
      expect(await assistant.isConfigured(h.householdId)).toBe(false);

      const again = await h.core.invoke(updateAssistantSettings, h.owner, {
        provider: 'openai',
        model: 'third-model',
        base_url: server.url,
      });
      expect(again.output).toMatchObject({ enabled: true, api_key_set: true });
      await assistant.ask(h.owner, { text: 'hi again' });
      expect(server.requests[1]!.body.model).toBe('third-model');
      expect(server.requests[1]!.headers.authorization).toBe(`Bearer ${KEY}`);
    } finally {
      await server.close();
    }
  });

  it('are overridden field by field by EXHALE_ASSISTANT_* variables', async () => {
    await h.core.invoke(updateAssistantSettings, h.owner, {
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      api_key: KEY,
    });
    vi.stubEnv('EXHALE_ASSISTANT_MODEL', 'env-model');
    vi.stubEnv('EXHALE_ASSISTANT_PROVIDER', 'bogus');
    expect(overridesFromEnv()).toEqual({
      provider: undefined,
      model: 'env-model',
      apiKey: undefined,
      baseUrl: undefined,
    });
    expect((await h.core.invoke(getAssistantSettings, h.owner, {})).output).toMatchObject({
      provider: 'anthropic',
      model: 'env-model',
      from_environment: ['model'],
      api_key_set: true,
    });
  });

  it('send the stored key to the stored server once configured, with the environment filling the rest', async () => {
    const server = await startLlmServer(
      scripted('openai', [{ text: 'Hello from the local model.' }]),
    );
    try {
      const assistant = createAssistant({ core: h.core, config: overridesFromEnv() });
      expect(await assistant.isConfigured(h.householdId)).toBe(false);
      await h.core.invoke(updateAssistantSettings, h.owner, {
        provider: 'openai',
        base_url: server.url.replace(/\/v1$/, ''),
        api_key: KEY,
      });
      expect(await assistant.isConfigured(h.householdId)).toBe(false);
      vi.stubEnv('EXHALE_ASSISTANT_MODEL', 'llama3.2');
      const withEnv = createAssistant({ core: h.core, config: overridesFromEnv() });
      expect(await withEnv.isConfigured(h.householdId)).toBe(true);
      const reply = await withEnv.ask(h.owner, { text: 'hi' });
      expect(reply.text).toBe('Hello from the local model.');
      const req = server.requests[0]!;
      expect(req.path).toBe('/v1/chat/completions');
      expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(req.body.model).toBe('llama3.2');
    } finally {
      await server.close();
    }
  });
});
