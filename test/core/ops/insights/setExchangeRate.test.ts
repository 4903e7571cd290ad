import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { OpError } from '../../../../core/errors/index.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { loadEcbFixtures } from '../../fx/fixtures.ts';

describe('set_exchange_rate', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
    h.clock.now = new Date('2024-03-13T12:00:00Z');
    await loadEcbFixtures(h.db);
  });
  afterEach(async () => h.close());

  const rows = () =>
    h.db
      .knex('fx_rates')
      .where({ household_id: h.householdId })
      .select('currency', 'date', 'per_eur', 'source');

  it('stores a manual rate in units per euro, dated today by default, and says what one unit is worth here', async () => {
    const { output, auditId } = await h.core.invoke('set_exchange_rate', h.owner, {
      currency: 'USD',
      rate: '1.25',
    });
    expect(output).toEqual({
      currency: 'USD',
      per_eur: '1.25',
      date: '2024-03-13',
      source: 'manual',
      in_household_currency: '0.8',
      replaced: null,
    });
    expect(auditId).not.toBeNull();
    expect(await rows()).toEqual([
      { currency: 'USD', date: '2024-03-13', per_eur: 1.25, source: 'manual' },
    ]);
  });

  it('replaces the manual rate of the same day and can be undone', async () => {
    await h.core.invoke('set_exchange_rate', h.owner, {
      currency: 'ARS',
      rate: '950',
      date: '2024-03-01',
    });
    const second = await h.core.invoke('set_exchange_rate', h.owner, {
      currency: 'ARS',
      rate: '975.5',
      date: '2024-03-01',
    });
    expect(second.output).toMatchObject({ per_eur: '975.5', replaced: '950' });
    expect(await rows()).toEqual([
      { currency: 'ARS', date: '2024-03-01', per_eur: 975.5, source: 'manual' },
    ]);
    await h.core.invoke('undo', h.owner, { ids: [second.auditId] });
    expect(await rows()).toEqual([
      { currency: 'ARS', date: '2024-03-01', per_eur: 950, source: 'manual' },
    ]);
  });

  it('values a unit in a non-euro household currency through the euro', async () => {
    const gbp = await createTestHousehold({ currency: 'GBP' });
    try {
      gbp.clock.now = new Date('2024-03-13T12:00:00Z');
      await loadEcbFixtures(gbp.db);
      const { output } = await gbp.core.invoke('set_exchange_rate', gbp.owner, {
        currency: 'USD',
        rate: '1.0939',
      });
      expect(output.in_household_currency).toBe('0.781159');
    } finally {
      await gbp.close();
    }
  });

  it('writes nothing on a dry run', async () => {
    const { output, changes } = await h.core.invoke(
      'set_exchange_rate',
      h.owner,
      { currency: 'USD', rate: '1.2' },
      { dryRun: true },
    );
    expect(output.per_eur).toBe('1.2');
    expect(changes).toHaveLength(1);
    expect(await rows()).toEqual([]);
  });

  it('refuses members who are not the owner', async () => {
    const luis = await h.addMember('Luis');
    await expect(
      h.core.invoke('set_exchange_rate', luis, { currency: 'USD', rate: '1.2' }),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });

  it("refuses EUR, a zero or malformed rate and a date in the future, in the caller's language", async () => {
    const eur = await h.core
      .invoke('set_exchange_rate', h.owner, { currency: 'EUR', rate: '1' })
      .catch((e: unknown) => e);
    expect((eur as OpError).render('en')).toContain('EUR is always 1 per EUR');
    const zero = await h.core
      .invoke('set_exchange_rate', h.owner, { currency: 'USD', rate: '0' })
      .catch((e: unknown) => e);
    expect(zero).toBeInstanceOf(OpError);
    expect((zero as OpError).render('en')).toContain('positive rate');
    const text = await h.core
      .invoke('set_exchange_rate', h.owner, { currency: 'USD', rate: '1,2' })
      .catch((e: unknown) => e);
    expect((text as OpError).render('en')).toContain('positive rate');
    const spanishOwner = { ...h.owner, locale: 'es' as const };
    const future = await h.core
      .invoke('set_exchange_rate', spanishOwner, {
        currency: 'USD',
        rate: '1.2',
        date: '2024-03-14',
      })
      .catch((e: unknown) => e);
    expect((future as OpError).render('es')).toContain('no puede empezar en el futuro');
    expect(await rows()).toEqual([]);
  });
});
