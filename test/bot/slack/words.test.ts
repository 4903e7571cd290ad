import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { buttonsOf, readable } from '../../fakes/slackApi.ts';
import { createSlackWorld, seedSlackHousehold, type SlackWorld } from './harness.ts';

/**
 * Slack's own words in what Exhale writes: commands are named the way they are typed there
 * (`/exhale foo`), a group chat is a "channel", and a bare `/exhale` is help, also for someone
 * without a household yet.
 */
describe("Slack's words in chat texts", () => {
  let w: SlackWorld;
  const CHANNEL = 'C777';

  beforeEach(async () => {
    w = await createSlackWorld();
  });
  afterEach(async () => w.close());

  it('answers a bare `/exhale` in the DM of someone without a household with what Exhale is, `/exhale start` here, and what they can use', async () => {
    const zoe = w.slack.user('U2002', 'Zoe', 'en-US');
    const help = readable(await w.command(zoe, ''));
    expect(help).toContain("Exhale keeps your household's subscriptions in one place");
    expect(help).toContain(
      "To start, send /exhale start here and I'll set up your household in two questions. Got an invite code? Send /exhale start <code>.",
    );
    expect(help).toContain('/exhale help — ');
    expect(help).toContain('/exhale start — ');
    expect(help).not.toContain('private chat');
    expect(help).not.toContain('/exhale add');
  });

  it('names an unknown command the Slack way, in Spanish', async () => {
    const ana = w.slack.user('U1001', 'Ana', 'es-ES');
    await seedSlackHousehold(w.core, ana, 'es');
    const answer = readable(await w.command(ana, 'foo'));
    expect(answer).toContain('No conozco /exhale foo.');
    expect(answer).not.toContain('No conozco /foo');
  });

  it('calls a Slack channel a channel: not linked yet, the link offer and its button', async () => {
    const ana = w.slack.user('U1001', 'Ana', 'en-GB');
    await seedSlackHousehold(w.core, ana);
    expect(readable(await w.command(ana, 'list', CHANNEL))).toContain(
      "This channel isn't linked to a household yet. Send /exhale link to link it.",
    );
    const offer = await w.command(ana, 'link', CHANNEL);
    expect(readable(offer)).toContain("Link this channel to Ana's home?");
    expect(readable(offer)).not.toMatch(/\bgroup/);
    expect(buttonsOf(offer).map((b) => b.label)).toContain('🔗 Link this channel');
    await w.press(ana, offer, 'Link this channel');
    const linked = await w.slack.until(
      () => readable(w.slack.messages.get(offer.ts)).includes('now linked') && offer.ts,
    );
    const help = readable(w.slack.messages.get(linked));
    expect(help).toContain("This channel is now linked to Ana's home.");
    expect(help).toContain('/exhale link — Link this channel to your household');
  });

  it('says a price it could not read instead of folding it into the name', async () => {
    const ana = w.slack.user('U1001', 'Ana', 'en-GB');
    await seedSlackHousehold(w.core, ana);
    expect(readable(await w.command(ana, 'add Spotify abc EUR monthly'))).toContain(
      'I couldn\'t read "abc" as a price. How much does Spotify cost each time?',
    );
  });
});
