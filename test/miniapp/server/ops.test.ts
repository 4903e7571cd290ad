import { describe, expect, it } from 'vitest';

import type { Actor } from '../../../core/kernel/actor.ts';
import { offeredOn } from '../../../core/kernel/op.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { READ_SAMPLES, WRITE_SAMPLES } from '../../contract/samples.ts';
import { type Seed, seedHousehold } from '../../contract/seed.ts';
import { dumpDatabase } from '../../helpers/dump.ts';
import { TEST_NOW } from '../../helpers/testCore.ts';
import { json, linkTelegram, post, serve, signInitData, tma } from './harness.ts';

const OWNER_TG = 2001;
const MEMBER_TG = 2002;

/** A seeded household whose two members can open the Mini App from Telegram. */
async function seeded(): Promise<Seed & { headersFor(actor: Actor): Record<string, string> }> {
  const seed = await seedHousehold();
  await linkTelegram(seed.h.core, seed.owner.memberId ?? '', OWNER_TG);
  await linkTelegram(seed.h.core, seed.memberId, MEMBER_TG);
  return {
    ...seed,
    headersFor: (actor) =>
      tma(
        signInitData({
          user: { id: actor.memberId === seed.memberId ? MEMBER_TG : OWNER_TG },
          authDate: TEST_NOW,
        }),
      ),
  };
}

const web = (actor: Actor): Actor => ({ ...actor, channel: 'web' });
// join_household is offered on the web to a newcomer (POST /api/join, join.test.ts); a member
// calling it is refused there, so it is not among the calls a member makes here.
const onWeb = catalog.filter((op) => offeredOn(op, 'web') && op.household !== 'none');
const offWeb = catalog.filter((op) => !offeredOn(op, 'web'));

/**
 * One route per op the web surface offers, generated from the catalog: each answers what
 * `core.invoke` answers for the same member and input. Two households seeded alike (same ids,
 * same clock) take the call, one through the API, one through the core.
 */
describe('POST /api/ops/<name>: every op offered on the web', () => {
  it.each(onWeb.map((op) => [op.name] as const))('%s answers as core.invoke does', async (name) => {
    const viaApi = await seeded();
    const viaCore = await seeded();
    try {
      const write = WRITE_SAMPLES[name];
      const read = READ_SAMPLES[name];
      const sampleA = write ? await write(viaApi) : { input: read ? read(viaApi) : {} };
      const sampleB = write ? await write(viaCore) : { input: read ? read(viaCore) : {} };
      expect(sampleA).toEqual(sampleB);
      const actorA = 'actor' in sampleA && sampleA.actor ? sampleA.actor : viaApi.owner;
      const actorB = 'actor' in sampleB && sampleB.actor ? sampleB.actor : viaCore.owner;
      const res = await serve(viaApi.h.core).request(
        `/api/ops/${name}`,
        post({ input: sampleA.input }, viaApi.headersFor(actorA)),
      );
      const expected = await viaCore.h.core.invoke(name, web(actorB), sampleB.input, {
        surface: 'web',
      });
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual(
        JSON.parse(
          JSON.stringify({
            output: expected.output,
            auditId: expected.auditId,
            changes: expected.changes.length,
          }),
        ),
      );
    } finally {
      await viaApi.h.close();
      await viaCore.h.close();
    }
  });

  it.each(offWeb.map((op) => [op.name] as const))(
    '%s is not offered: 403, nothing written',
    async (name) => {
      const s = await seeded();
      try {
        const before = await dumpDatabase(s.h.db);
        const res = await serve(s.h.core).request(
          `/api/ops/${name}`,
          post({ input: {} }, s.headersFor(s.owner)),
        );
        expect(res.status).toBe(403);
        expect(await json(res)).toMatchObject({ error: 'forbidden' });
        expect(await dumpDatabase(s.h.db)).toBe(before);
      } finally {
        await s.h.close();
      }
    },
  );

  it('an unknown op is 404; an owner-only op is 403 for a member; bad input is 400 with issues in the member’s language, nothing written', async () => {
    const s = await seeded();
    try {
      const api = serve(s.h.core);
      const before = await dumpDatabase(s.h.db);
      const unknown = await api.request(
        '/api/ops/drop_tables',
        post({ input: {} }, s.headersFor(s.owner)),
      );
      expect(unknown.status).toBe(404);
      expect((await json(unknown)).message).toContain('drop_tables');

      const member = await api.request(
        '/api/ops/remove_member',
        post({ input: { id: s.owner.memberId } }, s.headersFor(s.member)),
      );
      expect(member.status).toBe(403);

      const bad = await api.request(
        '/api/ops/create_subscription',
        post(
          { input: { name: 'Disney+', amount: 'twelve', first_charge_date: '2026-13-40' } },
          s.headersFor(s.member),
        ),
      );
      expect(bad.status).toBe(400);
      const body = await json(bad);
      expect(body.error).toBe('invalid_input');
      expect(body.field).toBeDefined();
      expect(body.issues.length).toBeGreaterThan(0);
      expect(body.issues[0].path).toBeInstanceOf(Array);
      expect(body.message).toMatch(/válid|importe|fecha/i);

      const unknownField = await api.request(
        '/api/ops/create_tag',
        post({ input: { name: 'x', colour: 'red' } }, s.headersFor(s.owner)),
      );
      expect(unknownField.status).toBe(400);
      const notJson = await api.request('/api/ops/create_tag', {
        method: 'POST',
        headers: s.headersFor(s.owner),
        body: '{"input":',
      });
      expect(notJson.status).toBe(400);
      expect((await json(notJson)).message).toContain('JSON');
      expect(await dumpDatabase(s.h.db)).toBe(before);
    } finally {
      await s.h.close();
    }
  });

  it('a dry run answers what the change would be and writes nothing', async () => {
    const s = await seeded();
    try {
      const before = await dumpDatabase(s.h.db);
      const res = await serve(s.h.core).request(
        '/api/ops/delete_subscription',
        post({ input: { id: s.netflix }, dryRun: true }, s.headersFor(s.owner)),
      );
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body.auditId).toBeNull();
      expect(body.changes).toBeGreaterThan(0);
      expect(await dumpDatabase(s.h.db)).toBe(before);
    } finally {
      await s.h.close();
    }
  });
});
