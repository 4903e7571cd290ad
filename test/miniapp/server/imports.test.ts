import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { csv, FOUR_MONTHS, FOUR_MONTHS_ROWS } from '../../core/ops/statements/statement.ts';
import { seedHousehold, type Seed } from '../../contract/seed.ts';
import { TEST_NOW } from '../../helpers/testCore.ts';
import { saveReview } from '../../../core/chat/statementFlow.ts';
import { json, linkTelegram, post, serve, type Served, signInitData, tma } from './harness.ts';

const OWNER_TG = 3001;
const MEMBER_TG = 3002;
const as = (id: number) => tma(signInitData({ user: { id }, authDate: TEST_NOW }));

function upload(content: string, name: string, headers: Record<string, string>): RequestInit {
  const form = new FormData();
  form.append('file', new File([content], name, { type: 'text/csv' }));
  // The browser sets the multipart content type (with its boundary) itself.
  const { 'content-type': _json, ...rest } = headers;
  return { method: 'POST', body: form, headers: rest };
}

describe('the web import review: upload, review, import', () => {
  let s: Seed;
  let api: Served;
  beforeEach(async () => {
    s = await seedHousehold();
    await linkTelegram(s.h.core, s.owner.memberId ?? '', OWNER_TG);
    api = serve(s.h.core);
  });
  afterEach(async () => s.h.close());

  const names = async () =>
    (await s.h.db.knex('subscriptions').select('name')).map((r: { name: string }) => r.name);

  it('asks which currency a "$" statement is in, with the likely ones, then reads and imports it in the one named', async () => {
    // Day-first dates and "$" amounts: nothing says which dollar (the US writes month first).
    const dollars = csv([
      ['15/11/2025', 'CRUNCHYROLL MEMBERSHIP', '-$15.99'],
      ['15/12/2025', 'CRUNCHYROLL MEMBERSHIP', '-$15.99'],
      ['15/01/2026', 'CRUNCHYROLL MEMBERSHIP', '-$15.99'],
      ['15/02/2026', 'CRUNCHYROLL MEMBERSHIP', '-$15.99'],
    ]);
    const before = await names();
    const asked = await api.request('/api/import', upload(dollars, 'dollars.csv', as(OWNER_TG)));
    expect(asked.status).toBe(422);
    const question = await json(asked);
    expect(question.message).toMatch(/Which currency is it in\?/);
    expect(question.message).not.toMatch(/npx exhale/);
    expect(question.currencies).toEqual(expect.arrayContaining(['USD', 'CAD', 'AUD']));
    expect(await names()).toEqual(before);

    const form = upload(dollars, 'dollars.csv', as(OWNER_TG));
    (form.body as FormData).append('currency', 'cad');
    const sent = await api.request('/api/import', form);
    expect(sent.status).toBe(200);
    const { flowId, statement } = await json(sent);
    const crunchyroll = statement.candidates.find((c: { name: string }) =>
      /crunchyroll/i.test(c.name),
    );
    expect(crunchyroll).toMatchObject({ amount: '15.99', currency: 'CAD' });
    // The kept file is read again, and imported, in the currency named.
    const again = await json(await api.request(`/api/import/${flowId}`, { headers: as(OWNER_TG) }));
    expect(again.statement.candidates[0].currency).toBe('CAD');
    const imported = await api.request(
      `/api/import/${flowId}`,
      post({ candidates: [crunchyroll.id] }, as(OWNER_TG)),
    );
    expect(imported.status).toBe(200);
    expect((await json(imported)).output.created).toBe(1);
    const cad = await s.h.db
      .knex('subscriptions')
      .where({ currency: 'CAD' })
      .select('amount_minor');
    expect(cad).toEqual([{ amount_minor: 1599 }]);
  });

  it('reads an uploaded statement, shows it again on a reload, and imports the chosen candidates once, with Undo', async () => {
    const before = await names();
    const sent = await api.request('/api/import', upload(FOUR_MONTHS, 'card.csv', as(OWNER_TG)));
    expect(sent.status).toBe(200);
    const { flowId, statement } = await json(sent);
    expect(flowId).toMatch(/^upl_/);
    expect(statement.transactions.count).toBe(15);
    expect(statement.candidates.length).toBeGreaterThan(0);
    // Reading wrote nothing of the household's.
    expect(await names()).toEqual(before);

    const again = await json(await api.request(`/api/import/${flowId}`, { headers: as(OWNER_TG) }));
    expect(again.statement.candidates.map((c: { id: string }) => c.id)).toEqual(
      statement.candidates.map((c: { id: string }) => c.id),
    );

    const fresh = statement.candidates.filter((c: { tracked: unknown }) => c.tracked === null);
    const chosen = [fresh[0].id];
    const imported = await api.request(
      `/api/import/${flowId}`,
      post({ candidates: chosen }, as(OWNER_TG)),
    );
    expect(imported.status).toBe(200);
    const done = await json(imported);
    expect(done.output.created).toBe(1);
    expect(done.auditId).toMatch(/^act_/);
    expect((await names()).length).toBe(before.length + 1);
    const audit = await s.h.db.knex('audit_entries').where({ id: done.auditId }).first();
    expect(audit).toMatchObject({ op: 'import_candidates', channel: 'web' });

    // The same statement again is refused in a sentence (its date as a person writes dates, never
    // an ISO date), nothing added.
    const twice = await api.request(
      `/api/import/${flowId}`,
      post({ candidates: chosen }, as(OWNER_TG)),
    );
    expect(twice.status).toBeGreaterThanOrEqual(400);
    const refusal: string = (await json(twice)).message;
    expect(refusal).toMatch(/already imported on \w{3}, \d{1,2} \w{3} \d{4}\./);
    expect(refusal).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect((await names()).length).toBe(before.length + 1);

    const undo = await api.request(
      '/api/ops/undo',
      post({ input: { ids: [done.auditId] } }, as(OWNER_TG)),
    );
    expect(undo.status).toBe(200);
    expect((await names()).sort()).toEqual([...before].sort());
  });

  it('imports a candidate with corrected fields, and answers a bad one 400 with its issue at candidates.N.field, writing nothing', async () => {
    const sent = await json(
      await api.request('/api/import', upload(FOUR_MONTHS, 'card.csv', as(OWNER_TG))),
    );
    const fresh = sent.statement.candidates.filter((c: { tracked: unknown }) => c.tracked === null);
    const first: string = fresh[0].id;
    const before = await names();
    const bad = await api.request(
      `/api/import/${sent.flowId}`,
      post({ candidates: [{ id: first, name: 'Gym (family)', amount: '30.123' }] }, as(OWNER_TG)),
    );
    expect(bad.status).toBe(400);
    const body = await json(bad);
    expect(body.issues).toEqual([
      { path: ['candidates', '0', 'amount'], message: expect.stringContaining('decimal') },
    ]);
    expect(body.field).toBe('candidates.0.amount');
    expect(await names()).toEqual(before);

    const ok = await api.request(
      `/api/import/${sent.flowId}`,
      post({ candidates: [{ id: first, name: 'Gym (family)', amount: '31.50' }] }, as(OWNER_TG)),
    );
    expect(ok.status).toBe(200);
    const done = await json(ok);
    expect(done.output.created).toBe(1);
    const row = await s.h.db.knex('subscriptions').where({ name: 'Gym (family)' }).first();
    expect(Number(row.amount_minor)).toBe(3150);
  });

  it('keeps an upload for its member only, and refuses a request without a file or a choice in the reader’s language', async () => {
    const { flowId } = await json(
      await api.request('/api/import', upload(FOUR_MONTHS, 'card.csv', as(OWNER_TG))),
    );
    const memberId = s.member.memberId ?? '';
    await linkTelegram(s.h.core, memberId, MEMBER_TG);
    const other = await api.request(`/api/import/${flowId}`, { headers: as(MEMBER_TG) });
    expect(other.status).toBe(404);

    const empty = new FormData();
    const none = await api.request('/api/import', {
      method: 'POST',
      body: empty,
      headers: as(OWNER_TG),
    });
    expect(none.status).toBe(400);
    expect((await json(none)).message).toContain('statement file');

    const nothing = await api.request(
      `/api/import/${flowId}`,
      post({ candidates: [] }, as(OWNER_TG)),
    );
    expect(nothing.status).toBe(400);
    expect((await json(nothing)).message).toContain('at least one');
  });

  it('answers an upload without credentials 401, writing nothing', async () => {
    const flows = async () => (await s.h.db.knex('flows').where({ kind: 'web_upload' })).length;
    const res = await api.request('/api/import', upload(FOUR_MONTHS, 'card.csv', {}));
    expect(res.status).toBe(401);
    expect(await flows()).toBe(0);
  });

  it('reads a statement over the edge’s general 4 MiB limit (the reader takes 20 MB), and refuses one over 20 MB with a 413 in the reader’s language', async () => {
    // Four months of subscriptions among 20,000 one-off purchases with long descriptions: 4.6 MB.
    const noise: Array<[string, string, string]> = Array.from({ length: 20_000 }, (_, i) => [
      `2025-${String(11 + (i % 2)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
      `SHOP ${i} ${'X'.repeat(200)}`,
      `-${(1 + (i % 97)).toFixed(2)}`,
    ]);
    const big = csv([...FOUR_MONTHS_ROWS, ...noise]);
    expect(big.length).toBeGreaterThan(4 * 1024 * 1024);
    const read = await api.request('/api/import', upload(big, 'year.csv', as(OWNER_TG)));
    expect(read.status).toBe(200);
    const { statement } = await json(read);
    expect(statement.candidates.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['Netflix', 'Spotify']),
    );

    const flows = async () => (await s.h.db.knex('flows').where({ kind: 'web_upload' })).length;
    const kept = await flows();
    const huge = 'x'.repeat(21 * 1024 * 1024);
    for (const [language, says] of [
      ['en', 'larger than 20 MB'],
      ['es', '20 MB'],
    ] as const) {
      const res = await api.request(
        '/api/import',
        upload(huge, 'huge.csv', { ...as(OWNER_TG), 'accept-language': language }),
      );
      const body = await json(res);
      expect([res.status, body.message]).toEqual([413, expect.stringContaining(says)]);
    }
    expect(await flows()).toBe(kept);
    // Other routes keep the general limit (a client declares the length, as browsers do).
    const pad = JSON.stringify({ input: { pad: 'x'.repeat(5 * 1024 * 1024) } });
    const other = await api.request(
      '/api/ops/get_household',
      post(JSON.parse(pad), { ...as(OWNER_TG), 'content-length': String(pad.length) }),
    );
    expect(other.status).toBe(413);
  });

  it('says which formats work when the file is not a statement, keeping nothing', async () => {
    const flows = async () => (await s.h.db.knex('flows').where({ kind: 'web_upload' })).length;
    const res = await api.request(
      '/api/import',
      upload('Dear Ana,\nsee you on Friday.\n', 'letter.txt', as(OWNER_TG)),
    );
    expect(res.status).toBe(400);
    expect((await json(res)).message).toMatch(/CSV/);
    expect(await flows()).toBe(0);
  });

  it('opens a statement sent in chat (the card’s “Review in app”) for its member while the review is open', async () => {
    const review = {
      file_name: 'chat.csv',
      content: Buffer.from(FOUR_MONTHS).toString('base64'),
      summary: {
        count: 15,
        first_date: '2025-11-03',
        last_date: '2026-02-16',
        sum: '0',
        currency: 'EUR',
        imported_before: null,
      },
      candidates: [],
      absent: [],
      selected: [],
      page: 0,
      status: 'open' as const,
      pending_id: null,
    };
    const save = (id: string, status: 'open' | 'imported') =>
      saveReview(
        s.h.db,
        {
          id,
          householdId: s.h.householdId,
          memberId: s.owner.memberId,
          review: { ...review, status },
        },
        s.h.core.clock(),
      );
    await save('flw_chat_open', 'open');
    await save('flw_chat_done', 'imported');
    const opened = await api.request('/api/import/flw_chat_open', { headers: as(OWNER_TG) });
    expect(opened.status).toBe(200);
    const body = await json(opened);
    expect(body.statement.transactions.count).toBe(15);
    expect(body.statement.candidates.length).toBeGreaterThan(0);
    // Settled in chat: gone here too; another member never sees it.
    expect((await api.request('/api/import/flw_chat_done', { headers: as(OWNER_TG) })).status).toBe(
      404,
    );
    await linkTelegram(s.h.core, s.member.memberId ?? '', MEMBER_TG);
    expect(
      (await api.request('/api/import/flw_chat_open', { headers: as(MEMBER_TG) })).status,
    ).toBe(404);
  });

  it('shows and imports the names the chat card showed (tidied by the assistant) for a statement sent in chat', async () => {
    await saveReview(
      s.h.db,
      {
        id: 'flw_chat_tidy',
        householdId: s.h.householdId,
        memberId: s.owner.memberId,
        review: {
          file_name: 'chat.csv',
          content: Buffer.from(FOUR_MONTHS).toString('base64'),
          summary: {
            count: 15,
            first_date: '2025-11-03',
            last_date: '2026-02-16',
            sum: '0',
            currency: 'EUR',
            imported_before: null,
          },
          candidates: [],
          absent: [],
          selected: [],
          page: 0,
          status: 'open',
          pending_id: null,
          names: { 'iron-gym:month:1': 'Iron Gym London' },
        },
      },
      s.h.core.clock(),
    );
    const opened = await json(
      await api.request('/api/import/flw_chat_tidy', { headers: as(OWNER_TG) }),
    );
    const names = (opened.statement.candidates as Array<{ id: string; name: string }>).map(
      (c) => c.name,
    );
    expect(names).toContain('Iron Gym London');
    expect(names).not.toContain('Iron Gym');
    const imported = await api.request('/api/import/flw_chat_tidy', {
      method: 'POST',
      headers: { ...as(OWNER_TG), 'content-type': 'application/json' },
      body: JSON.stringify({ candidates: ['iron-gym:month:1'] }),
    });
    expect(imported.status).toBe(200);
    expect(
      await s.h.db.knex('subscriptions').where({ name: 'Iron Gym London' }).select('name'),
    ).toHaveLength(1);
  });
});
