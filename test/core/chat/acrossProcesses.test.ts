import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { clearAwaiting, isAwaiting, setAwaiting } from '../../../core/chat/flows.ts';
import { resolveSpeaker } from '../../../core/chat/identity.ts';
import type { Person } from '../../../core/chat/types.ts';
import { type Actor, memberActor, newcomerActor } from '../../../core/kernel/actor.ts';
import { newFreshness } from '../../../core/kernel/readCache.ts';
import { type ProcessCore, processCores } from '../../helpers/processCores.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../../helpers/sharedDatabase.ts';
import { TEST_NOW } from '../../helpers/testCore.ts';

const ana: Person = {
  channel: 'telegram',
  externalId: '42',
  displayName: 'Ana',
  languageCode: 'en',
};

/**
 * What the chat engine keeps between events (who a platform account is; that a conversation has
 * no open question) holds only while nothing changed: a change made in another process, or a
 * question this process asked, counts from the next event on, on SQLite and PostgreSQL.
 */
describe('chat events beside another process (core/chat/identity.ts, core/chat/flows.ts)', () => {
  let shared: SharedTestDatabase;
  const cores = processCores(() => shared);
  let a: ProcessCore;
  let b: ProcessCore;
  let owner: Actor;

  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    a = await cores.open();
    b = await cores.open();
    const created = await a.core.invoke(
      'create_household',
      newcomerActor('telegram', 'en', { telegram: '42' }),
      { name: 'Home', currency: 'EUR', time_zone: 'Europe/Madrid', owner_name: 'Ana' },
    );
    owner = memberActor(
      { ...created.output.member, household_id: created.output.household.id },
      'telegram',
    );
  });
  afterEach(async () => {
    await cores.close();
    await shared.close();
  });

  const speaker = (core: ProcessCore) =>
    resolveSpeaker(core.db, ana, { cached: true, fresh: newFreshness() });

  it('speaks to a member in the language another process just set, and to a newcomer once the account is unlinked', async () => {
    expect((await speaker(a)).locale).toBe('en');
    expect((await speaker(a)).actor.memberId).toBe(owner.memberId);
    await b.core.invoke('update_member', owner, { id: owner.memberId, language: 'es' });
    expect((await speaker(a)).locale).toBe('es');
    await b.db
      .knex('member_identities')
      .where({ platform: 'telegram', external_id: '42' })
      .delete();
    const after = await speaker(a);
    expect(after.newcomer).toBe(true);
    expect(after.actor.memberId).toBeNull();
  });

  it('forgets, at the next command, a question asked in another process after "no question here" was known', async () => {
    const key = 'telegram:42:telegram:42';
    const who = { householdId: owner.householdId, memberId: owner.memberId, who: 'telegram:42' };
    await clearAwaiting(a.db, key, newFreshness()); // none: A now knows there is none
    await setAwaiting(b.db, key, who, { t: 'add_line' }, TEST_NOW);
    expect(await isAwaiting(a.db, key, TEST_NOW)).toBe(true);
    await clearAwaiting(a.db, key, newFreshness());
    expect(await isAwaiting(b.db, key, TEST_NOW)).toBe(false);
  });

  it('forgets, at the next command, a question it asked itself after "no question here" was known', async () => {
    const key = 'telegram:42:telegram:42';
    const who = { householdId: owner.householdId, memberId: owner.memberId, who: 'telegram:42' };
    await clearAwaiting(a.db, key, newFreshness());
    await setAwaiting(a.db, key, who, { t: 'add_line' }, TEST_NOW);
    await clearAwaiting(a.db, key, newFreshness());
    expect(await isAwaiting(a.db, key, TEST_NOW)).toBe(false);
  });
});
