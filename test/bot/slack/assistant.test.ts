import { afterEach, describe, expect, it } from 'vitest';

import type { Actor } from '../../../core/kernel/actor.ts';
import type { ScriptStep } from '../../fakes/llmScript.ts';
import { buttonsOf, readable, slackRequests, type SlackUser } from '../../fakes/slackApi.ts';
import { scriptedAssistant } from '../pacedModel.ts';
import { createSlackWorld, seedSlackHousehold, type SlackWorld } from './harness.ts';

const LONG =
  'Netflix now costs 17.99 EUR a month instead of 15.99 EUR. That is 24 EUR more a year; ' +
  'your next charge is on 12 March. I prepared the change below: nothing is saved until you ' +
  'press Confirm, and you can undo it afterwards for a day if you change your mind about it.';

const LARGO =
  'Netflix cuesta ahora 17,99 EUR al mes en lugar de 15,99 EUR. Son 24 EUR más al año; ' +
  'el próximo cobro es el 12 de marzo. He preparado el cambio de abajo: no se guarda nada hasta ' +
  'que pulses Confirmar, y puedes deshacerlo durante un día si cambias de opinión sobre ello.';

describe('the assistant in Slack', () => {
  let w: SlackWorld;
  let ana: SlackUser;
  let actor: Actor;
  let netflix = '';
  afterEach(async () => w.close());

  async function start(language: 'en' | 'es', answer: string): Promise<void> {
    const steps: ScriptStep[] = [
      () => ({
        text: language === 'es' ? 'Miro el precio. ' : 'Let me check the price. ',
        calls: [{ name: 'update_subscription', args: { id: netflix, amount: '17.99' } }],
      }),
      { text: answer },
    ];
    w = await createSlackWorld({
      assistant: (core) => scriptedAssistant(core, steps, { gapMs: 1 }).assistant,
    });
    ana = w.slack.user('U1001', 'Ana', language === 'es' ? 'es-ES' : 'en-US');
    actor = (await seedSlackHousehold(w.core, ana, language)).actor;
    netflix = (
      (
        await w.core.invoke('create_subscription', actor, {
          name: 'Netflix',
          amount: '15.99',
          first_charge_date: '2026-01-12',
        })
      ).output as { id: string }
    ).id;
  }

  const amount = async (): Promise<number> =>
    Number(
      (
        (await w.db.knex('subscriptions').where({ id: netflix }).first('amount_minor')) as {
          amount_minor: number;
        }
      ).amount_minor,
    );

  async function threadStarted(): Promise<void> {
    await w.post(
      slackRequests.event({
        type: 'assistant_thread_started',
        assistant_thread: {
          user_id: ana.id,
          channel_id: 'D1001',
          thread_ts: '1700000000.000001',
          context: {},
        },
        event_ts: '1700000000.000002',
      }),
    );
  }

  it('suggests prompts, titles the thread, shows a status, streams the answer, then the card: Confirm applies once, Undo reverts', async () => {
    await start('en', LONG);
    await threadStarted();
    const prompts = await w.slack.until(
      () => w.slack.callsOf('assistant.threads.setSuggestedPrompts')[0],
    );
    expect(prompts.params.prompts).toEqual([
      { title: 'What do I pay this month?', message: 'What do I pay this month?' },
      { title: 'Find savings', message: 'Find savings in my subscriptions' },
      { title: 'Add a subscription', message: 'Add a subscription' },
    ]);

    await w.post(
      slackRequests.dm(ana, 'Netflix went up to 17.99', { thread_ts: '1700000000.000001' }),
    );
    const card = await w.slack.until(() =>
      w.slack.messagesIn('D1001').find((m) => readable(m).includes('Change Netflix?')),
    );
    expect(card.thread_ts).toBe('1700000000.000001');
    expect(w.slack.callsOf('assistant.threads.setTitle')[0]?.params).toMatchObject({
      title: 'Netflix went up to 17.99',
    });
    expect(w.slack.callsOf('assistant.threads.setStatus')[0]?.params).toMatchObject({
      status: 'is looking at your subscriptions…',
    });
    // Streamed: started, appended, stopped, and the streamed message holds the whole answer.
    const methods = w.slack.calls
      .map((c) => c.method)
      .filter((m) => m.startsWith('chat.') && m.endsWith('Stream'));
    expect(methods[0]).toBe('chat.startStream');
    expect(methods).toContain('chat.appendStream');
    expect(methods.at(-1)).toBe('chat.stopStream');
    const streamed = w.slack.messagesIn('D1001').find((m) => m.streaming === false)!;
    expect(streamed.text.startsWith('Let me check the price.')).toBe(true);
    expect(streamed.text.endsWith(`\n\n${LONG}`)).toBe(true);
    expect(streamed.thread_ts).toBe('1700000000.000001');
    expect(w.slack.callsOf('chat.startStream')[0]?.params).toMatchObject({
      recipient_user_id: 'U1001',
      recipient_team_id: 'T0001',
    });

    // The card is Exhale's, as Block Kit: the title in bold, the change, Confirm and Discard.
    expect(card.blocks?.[0]?.text?.text).toContain('*📝 Change Netflix?*');
    expect(readable(card)).toContain('amount 15.99 EUR → 17.99 EUR');
    expect(buttonsOf(card).map((b) => b.label)).toEqual(['✅ Confirm', '✖️ Discard']);
    expect(await amount()).toBe(1599);

    const confirm = buttonsOf(card)[0]!;
    const press = slackRequests.press(ana, card, confirm.actionId, confirm.value);
    await Promise.all([w.post(press), w.post({ ...press })]);
    await w.handle.idle();
    expect(await amount()).toBe(1799);
    expect(await w.db.knex('audit_entries').where({ op: 'update_subscription' })).toHaveLength(1);
    const done = w.slack.messages.get(card.ts)!;
    expect(readable(done)).toContain('✅ Done: Change Netflix');
    expect(buttonsOf(done).map((b) => b.label)).toEqual(['↩️ Undo']);

    await w.press(ana, done, 'Undo');
    await w.handle.idle();
    expect(await amount()).toBe(1599);
    expect(readable(w.slack.messages.get(card.ts))).toContain('↩️ Undone: Change Netflix');
    expect(buttonsOf(w.slack.messages.get(card.ts))).toEqual([]);
    expect(w.logged).toEqual([]);
  });

  it('speaks Spanish in the container to a Spanish member: prompts, status and card', async () => {
    await start('es', LARGO);
    await threadStarted();
    const prompts = await w.slack.until(
      () => w.slack.callsOf('assistant.threads.setSuggestedPrompts')[0],
    );
    expect(prompts.params).toMatchObject({ title: 'Prueba una de estas:' });
    expect((prompts.params.prompts as Array<{ title: string }>).map((p) => p.title)).toEqual([
      '¿Qué pago este mes?',
      'Encontrar ahorros',
      'Añadir una suscripción',
    ]);
    await w.post(
      slackRequests.dm(ana, 'Netflix ha subido a 17,99', { thread_ts: '1700000000.000001' }),
    );
    const card = await w.slack.until(() =>
      w.slack
        .messagesIn('D1001')
        .find((m) => buttonsOf(m).some((b) => b.label.includes('Confirmar'))),
    );
    expect(readable(card)).toContain('Netflix');
    expect(buttonsOf(card).map((b) => b.label)).toEqual(['✅ Confirmar', '✖️ Descartar']);
    expect(w.slack.callsOf('assistant.threads.setStatus')[0]?.params.status).toBe(
      'está mirando tus suscripciones…',
    );
    await w.press(ana, card, 'Confirmar');
    await w.handle.idle();
    expect(await amount()).toBe(1799);
  });
  it('puts an Open in app link button on a screen it shows, to the web app on that subscription', async () => {
    const steps: ScriptStep[] = [
      () => ({
        calls: [
          { name: 'show_screen', args: { kind: 'subscriptions', subscription_ids: [netflix] } },
        ],
      }),
      { text: 'There it is.' },
    ];
    w = await createSlackWorld({
      webUrl: 'https://exhale.example/app',
      assistant: (core) => scriptedAssistant(core, steps, { gapMs: 1 }).assistant,
    });
    ana = w.slack.user('U1001', 'Ana', 'en-US');
    actor = (await seedSlackHousehold(w.core, ana, 'en')).actor;
    netflix = (
      (
        await w.core.invoke('create_subscription', actor, {
          name: 'Netflix',
          amount: '15.99',
          first_charge_date: '2026-01-12',
        })
      ).output as { id: string }
    ).id;
    await w.post(slackRequests.dm(ana, 'show me Netflix'));
    const screen = await w.slack.until(() =>
      w.slack.messagesIn('D1001').find((m) => readable(m).includes('Subscriptions (1)')),
    );
    expect(readable(screen)).toContain('Netflix · 15.99 EUR');
    expect(buttonsOf(screen)).toEqual([
      expect.objectContaining({
        label: '📱 Open in app',
        url: `https://exhale.example/app/subscriptions/${netflix}`,
      }),
    ]);
    expect(w.logged).toEqual([]);
  });
});
