import { afterEach, describe, expect, it } from 'vitest';

import { createAssistant } from '../../../core/assistant/index.ts';
import { memberActor } from '../../../core/kernel/actor.ts';
import { freePort } from '../../helpers/exhaleProcess.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { ensureAssistantTables } from './helpers.ts';

/**
 * A model server nobody answers at (a local Ollama not started, a wrong port): the notice says the
 * assistant could not reach it, not that "the model failed to answer"; the owner, who can fix it
 * in Settings, reads the address tried, a member reads that the owner should check it.
 */
let h: TestHousehold | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('an unreachable model server', () => {
  it('is named as such: with its address to the owner, without it to a member', async () => {
    h = await createTestHousehold();
    await ensureAssistantTables(h.db);
    const url = `http://127.0.0.1:${await freePort()}`;
    const assistant = createAssistant({
      core: h.core,
      config: { provider: 'openai', model: 'llama3', baseUrl: url },
      http: { retryDelayMs: 1 },
      log: () => undefined,
    });
    const owner = memberActor(
      { id: h.ownerId, household_id: h.householdId, role: 'owner', language: 'en' },
      'telegram',
    );
    const asOwner = await assistant.ask(owner, { text: 'How much is Netflix?' });
    expect(asOwner.outcome).toBe('failed');
    expect(asOwner.notice).toBe(
      `Couldn't reach the assistant's model server at ${url}/v1. Check that it is running and reachable from Exhale's server, and that the server address in Settings → Assistant is right.`,
    );
    const luis = { ...(await h.addMember('Luis', 'es')), channel: 'telegram' as const };
    const asMember = await assistant.ask(luis, { text: '¿Cuánto cuesta Netflix?' });
    expect(asMember.notice).toBe(
      'No se ha podido contactar con el servidor del modelo del asistente. Quien administra el hogar debe comprobar que está en marcha y que su dirección en Ajustes es correcta.',
    );
    // The connection test in Settings says the same to the owner.
    const check = await assistant.check(owner);
    expect(check).toEqual({ ok: false, notice: asOwner.notice });
  });
});
