import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { memberActor } from '../../../core/kernel/actor.ts';
import { TEST_NOW } from '../../helpers/testCore.ts';
import { linkTelegram, serve, signInitData } from './harness.ts';
import { twoCores, type TwoCores } from './shared.ts';

const OWNER_TG = 4001;

/** Reads an event stream's text as it arrives; `until` resolves once the text matches (bounded, never a sleep). */
function reader(res: Response) {
  const body = res.body;
  if (!body) throw new Error('no body');
  const stream = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    async until(pattern: RegExp, boundMs = 8_000): Promise<RegExpMatchArray> {
      const deadline = Date.now() + boundMs;
      for (;;) {
        const found = text.match(pattern);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`stream never matched ${pattern}: ${text}`);
        const { value, done } = await stream.read();
        if (done) throw new Error(`stream ended before ${pattern}: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
    },
    changes(): Array<{ op: string; auditId: string; kind: string }> {
      return [...text.matchAll(/event: change\ndata: (.*)\n/g)].map((m) =>
        JSON.parse(m[1] ?? '{}'),
      );
    },
    cancel: () => stream.cancel(),
  };
}

describe('GET /api/events: live changes', () => {
  let two: TwoCores;
  beforeEach(async () => {
    two = await twoCores();
    await linkTelegram(two.a, two.ownerOn('a').memberId ?? '', OWNER_TG);
  });
  afterEach(async () => two.close());

  it('announces a change another process made (its own bus, on SQLite and PostgreSQL), but not another member’s private one', async () => {
    const api = serve(two.a);
    const initData = signInitData({ user: { id: OWNER_TG }, authDate: TEST_NOW });
    const res = await api.request(`/api/events?tma=${encodeURIComponent(initData)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = reader(res);
    await events.until(/: open/);

    const owner = two.ownerOn('b');
    const invite = await two.b.invoke('create_invite', owner, {});
    const joined = await two.b.invoke(
      'join_household',
      { ...owner, householdId: null, memberId: null, role: null },
      {
        code: invite.output.code,
        name: 'Luis',
      },
    );
    const luis = memberActor(
      {
        id: joined.output.member.id,
        household_id: two.householdId,
        role: 'member',
        language: 'es',
      },
      'telegram',
    );
    await two.b.invoke('create_subscription', luis, {
      name: 'Secret gym',
      amount: '39.90',
      first_charge_date: '2026-01-01',
      private: true,
    });
    const tag = await two.b.invoke('create_tag', owner, { name: 'family' });
    await events.until(new RegExp(`"auditId":"${tag.auditId}"`));
    const ops = events.changes().map((c) => c.op);
    expect(ops).toEqual(['create_invite', 'join_household', 'create_tag']);
    expect(events.changes().at(-1)).toEqual({
      kind: 'changed',
      op: 'create_tag',
      auditId: tag.auditId,
      at: expect.any(String),
    });
    await events.cancel();
  });

  it('needs credentials like every route, and ends open streams when the server stops', async () => {
    const api = serve(two.a);
    const anonymous = await api.request('/api/events');
    expect(anonymous.status).toBe(401);
    const initData = signInitData({ user: { id: OWNER_TG }, authDate: TEST_NOW });
    const res = await api.request('/api/events', { headers: { authorization: `tma ${initData}` } });
    const events = reader(res);
    await events.until(/: open/);
    api.miniApp.close();
    await expect(events.until(/never/)).rejects.toThrow('stream ended');
  });
});
