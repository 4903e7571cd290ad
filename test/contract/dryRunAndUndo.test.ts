import { describe, expect, it } from 'vitest';
import type { Knex } from 'knex';

import { renderSummary, type StoredSummary } from '../../core/i18n/activity.ts';
import { LOCALES } from '../../core/i18n/index.ts';
import { newcomerActor } from '../../core/kernel/actor.ts';
import { isWrite } from '../../core/kernel/op.ts';
import { catalog } from '../../core/ops/catalog.ts';
import { dumpDatabase } from '../helpers/dump.ts';
import { WRITE_SAMPLES } from './samples.ts';
import { seedHousehold } from './seed.ts';

const writeOps = catalog.filter(isWrite);

/** The writes that are deliberately never undone, and why. */
const NEVER_UNDONE: Record<string, string> = {
  create_household: "undoing it would take every member's data with it; undo refuses it",
  end_web_session: 'undoing a sign-out would hand the browser back its ended session (notUndoable)',
  create_sign_in_link:
    'a sign-in link is no household change: undoing it would only kill a code its person is using (notUndoable)',
};

/**
 * The kernel's promises, checked for every write op of the catalog: a dry run changes nothing and
 * returns exactly what the real run returns; undo restores the prior state exactly.
 */
describe('the ops whose undo is refused', () => {
  it('are creating the household and exactly the ops marked notUndoable', () => {
    const marked = catalog.filter((op) => op.notUndoable !== undefined).map((op) => op.name);
    expect(Object.keys(NEVER_UNDONE).sort()).toEqual(['create_household', ...marked].sort());
  });
});

describe('every write op', () => {
  it('has a sample call in test/contract/samples.ts', () => {
    expect(writeOps.map((op) => op.name).filter((name) => !(name in WRITE_SAMPLES))).toEqual([]);
  });

  it.each(writeOps.filter((op) => op.name in WRITE_SAMPLES).map((op) => [op.name] as const))(
    '%s: dry run leaves the database unchanged and matches the real run; undo restores it',
    async (name) => {
      const seed = await seedHousehold();
      const { h } = seed;
      try {
        const sample = await WRITE_SAMPLES[name]!(seed);
        const actor = sample.newcomer ? newcomerActor('cli', 'en') : (sample.actor ?? seed.owner);
        const before = await dumpDatabase(h.db);
        const mark = h.ids.mark();

        const dry = await h.core.invoke(name, actor, sample.input, { dryRun: true });
        expect(await dumpDatabase(h.db)).toBe(before);
        expect(dry.dryRun).toBe(true);
        expect(dry.changes.length).toBeGreaterThan(0);

        h.ids.rewind(mark);
        const real = await h.core.invoke(name, actor, sample.input);
        expect(normaliseSecrets(real.output)).toEqual(normaliseSecrets(dry.output));
        expect(real.changes).toEqual(dry.changes);
        expect(real.auditId).not.toBeNull();
        await expectLinesFilled(h.db.knex, real.auditId);

        const undoActor = sample.newcomer ? await ownerOfNewHousehold(h, real.changes) : seed.owner;
        if (name in NEVER_UNDONE) {
          await expect(
            h.core.invoke('undo', undoActor, { ids: [real.auditId] }),
          ).rejects.toMatchObject({ code: 'forbidden' });
          return;
        }
        const undone = await h.core.invoke('undo', undoActor, { ids: [real.auditId] });
        await expectLinesFilled(h.db.knex, undone.auditId);
        // Bookkeeping is not undone: the audit itself, short-lived flows, token last use, and the
        // assistant's API key (kept out of the audit on purpose, so undo cannot restore it).
        const untracked = ['audit_entries', 'flows', 'token_uses', 'assistant_secrets'];
        expect(await dumpDatabase(h.db, { except: untracked })).toBe(
          JSON.stringify(pick(JSON.parse(before) as Record<string, unknown>, untracked)),
        );
      } finally {
        await h.close();
      }
    },
  );
});

/** Random codes and secrets (invite codes, tokens) legitimately differ between two runs. */
function normaliseSecrets(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v: unknown) =>
    ['code', 'token'].includes(key) && typeof v === 'string' ? '<random>' : v,
  );
}

function pick(dump: Record<string, unknown>, except: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(dump).filter(([table]) => !except.includes(table)));
}

async function ownerOfNewHousehold(
  h: Awaited<ReturnType<typeof seedHousehold>>['h'],
  changes: Array<{ table: string; after: Record<string, unknown> | null }>,
) {
  const joined = changes.find((c) => c.table === 'members')?.after;
  const { memberActor } = await import('../../core/kernel/actor.ts');
  return memberActor(
    {
      id: String(joined?.id),
      household_id: String(joined?.household_id),
      role: 'owner',
      language: 'en',
    },
    'cli',
  );
}

/** The activity line of an entry (and of its undo), rendered in every language: no placeholder left. */
async function expectLinesFilled(db: Knex, auditId: string | null): Promise<void> {
  const row = (await db('audit_entries').where({ id: auditId }).first()) as StoredSummary;
  for (const locale of LOCALES) expect(renderSummary(locale, row)).not.toMatch(/\{\w+\}/);
}
