import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { FOUR_MONTHS } from '../../core/ops/statements/statement.ts';
import { buttonsOf, readable, slackRequests, type SlackUser } from '../../fakes/slackApi.ts';
import { createSlackWorld, seedSlackHousehold, type SlackWorld } from './harness.ts';

const homeText = (w: SlackWorld, user: string): string =>
  readable({ text: '', blocks: w.slack.homes.get(user)?.blocks ?? [] });

describe('Slack App Home, files and failures', () => {
  let w: SlackWorld;
  let ana: SlackUser;
  beforeEach(async () => {
    w = await createSlackWorld({ webUrl: 'https://exhale.example/app' });
    ana = w.slack.user('U1001', 'Ana', 'es-ES');
  });
  afterEach(async () => w.close());

  it('publishes App Home when opened, and redraws it when the household changes (Spanish)', async () => {
    await w.post(
      slackRequests.event({ type: 'app_home_opened', user: ana.id, channel: 'D1001', tab: 'home' }),
    );
    await w.handle.idle();
    expect(homeText(w, ana.id)).toContain('Aún no tienes un hogar en Exhale');

    const { actor } = await seedSlackHousehold(w.core, ana, 'es');
    await w.core.invoke('create_subscription', actor, {
      name: 'Netflix',
      amount: '15.99',
      first_charge_date: '2026-03-05',
    });
    await w.handle.idle();
    const home = homeText(w, ana.id);
    expect(home).toContain('*Gastos:* 15,99 EUR al mes · 191,88 EUR al año\n1 suscripción');
    expect(home).toContain('• jue, 5 mar 2026 · Netflix · 15,99 EUR');
    expect(home).toContain('*Próximos cargos*');
    expect(home).toContain('Netflix');
    const open = buttonsOf(w.slack.homes.get(ana.id))[0];
    expect(open).toMatchObject({ label: 'Abrir la app web', url: 'https://exhale.example/app' });
    const published = w.slack.callsOf('views.publish').at(-1)!;
    expect(published.params).toMatchObject({ user_id: 'U1001' });
  });

  it('counts every running subscription and names what the costs left out for want of a rate (English, Spanish)', async () => {
    const { actor } = await seedSlackHousehold(w.core, ana, 'en');
    for (const [name, amount, currency] of [
      ['Netflix', '15.99', 'EUR'],
      ['Spotify', '10.99', 'EUR'],
      ['AT&T', '30.00', 'USD'],
    ] as const)
      await w.core.invoke('create_subscription', actor, {
        name,
        amount,
        currency,
        first_charge_date: '2026-03-05',
      });
    await w.post(
      slackRequests.event({ type: 'app_home_opened', user: ana.id, channel: 'D1001', tab: 'home' }),
    );
    await w.handle.idle();
    const home = homeText(w, ana.id);
    // The name is escaped as mrkdwn wants it (Slack shows "AT&T"), like the next charges' lines.
    expect(home).toContain(
      '*Costs:* 26.98 EUR a month · 323.76 EUR a year\n3 subscriptions, 2 of them in these costs\n⚠️ Left out, with no exchange rate: AT&amp;T 30.00 USD a month.',
    );
    expect(home).toContain('• Thu, 5 Mar 2026 · AT&amp;T · 30.00 USD');

    await w.core.invoke('update_member', actor, { id: actor.memberId, language: 'es' });
    await w.handle.idle();
    expect(homeText(w, ana.id)).toContain(
      '*Gastos:* 26,98 EUR al mes · 323,76 EUR al año\n3 suscripciones, 2 de ellas en estos gastos\n⚠️ Sin tipo de cambio, se han dejado fuera: AT&amp;T 30,00 USD al mes.',
    );
  });

  it('sends a statement CSV shared in the DM to the statement review', async () => {
    await seedSlackHousehold(w.core, ana, 'en');
    w.slack.user('U1001', 'Ana', 'en-US');
    w.slack.addFile('F1', 'statement.csv', 'text/csv', Buffer.from(FOUR_MONTHS));
    await w.post(
      slackRequests.dm(ana, '', {
        subtype: 'file_share',
        files: [{ id: 'F1', name: 'statement.csv' }],
      }),
    );
    await w.handle.idle();
    const card = w.slack.messagesIn('D1001').find((m) => readable(m).includes('📄 statement.csv'));
    expect(card).toBeDefined();
    expect(readable(card)).toContain('Subscriptions found: 3.');
    expect(buttonsOf(card).map((b) => b.label)).toContain('Import 3');
    const download = w.slack.callsOf('file.download')[0];
    expect(download?.auth).toBe('Bearer xoxb-test');
    await w.press(ana, card!, 'Import 3');
    await w.handle.idle();
    expect(
      (await w.db.knex('subscriptions').orderBy('name')).map((s: { name: string }) => s.name),
    ).toEqual(['Iron Gym', 'Netflix', 'Spotify']);
  });

  it('waits for Retry-After when Slack answers 429, then sends', async () => {
    await seedSlackHousehold(w.core, ana, 'es');
    w.slack.rateLimit('chat.postMessage', 1);
    await w.post(slackRequests.command(ana, 'totals'));
    await w.handle.idle();
    const posts = w.slack.callsOf('chat.postMessage');
    expect(posts).toHaveLength(2);
    expect(w.slack.messagesIn('D1001')).toHaveLength(1);
    expect(w.logged).toEqual([]);
  });

  it('logs a failing event and answers it with a short apology in the person’s language', async () => {
    await seedSlackHousehold(w.core, ana, 'es');
    await w.db.knex.schema.dropTable('flows');
    await w.post(slackRequests.command(ana, 'add Netflix 15,99 EUR mensual 5'));
    await w.handle.idle();
    const last = w.slack.messagesIn('D1001').at(-1);
    expect(last?.text).toBe(
      'Lo siento, algo ha fallado por nuestra parte. No se ha cambiado nada; inténtalo de nuevo.',
    );
    expect(w.logged.length).toBeGreaterThan(0);
  });
});
