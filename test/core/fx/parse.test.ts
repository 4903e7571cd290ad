import { describe, expect, it } from 'vitest';

import { parseEcbXml } from '../../../core/fx/parse.ts';
import { readEcbFixture } from './fixtures.ts';

describe('parseEcbXml', () => {
  it('reads every currency of the ECB daily file of 2024-03-13 as units per euro', () => {
    const days = parseEcbXml(readEcbFixture('eurofxref-2024-03-13.xml'));
    expect(days).toHaveLength(1);
    const [day] = days;
    expect(day?.date).toBe('2024-03-13');
    expect(day?.rates).toHaveLength(30);
    const rates = new Map(day?.rates.map((r) => [r.currency, r.per_eur]));
    expect(rates.get('USD')).toBe(1.0939);
    expect(rates.get('JPY')).toBe(161.83);
    expect(rates.get('GBP')).toBe(0.85451);
    expect(rates.get('HUF')).toBe(396.9);
    expect(rates.get('IDR')).toBe(17039.08);
    expect(rates.has('EUR')).toBe(false);
  });

  it('reads the file of 2024-06-28 with its own rates', () => {
    const [day] = parseEcbXml(readEcbFixture('eurofxref-2024-06-28.xml'));
    expect(day?.date).toBe('2024-06-28');
    const rates = new Map(day?.rates.map((r) => [r.currency, r.per_eur]));
    expect(rates.get('USD')).toBe(1.0705);
    expect(rates.get('ZAR')).toBe(19.497);
    expect(day?.rates).toHaveLength(30);
  });

  it('reads several days (the history files), oldest first, with either quote style', () => {
    const xml = `<gesmes:Envelope><Cube>
      <Cube time="2024-06-28"><Cube currency="USD" rate="1.0705"/></Cube>
      <Cube time='2024-06-27'><Cube rate='1.0713' currency='USD'/><Cube currency='JPY' rate='171.57'/></Cube>
    </Cube></gesmes:Envelope>`;
    expect(parseEcbXml(xml)).toEqual([
      {
        date: '2024-06-27',
        rates: [
          { currency: 'USD', per_eur: 1.0713 },
          { currency: 'JPY', per_eur: 171.57 },
        ],
      },
      { date: '2024-06-28', rates: [{ currency: 'USD', per_eur: 1.0705 }] },
    ]);
  });

  it('skips entries that are not a real date, a currency code and a positive rate, and reads nothing from other documents', () => {
    const xml = `<Cube><Cube time='2024-02-30'><Cube currency='USD' rate='1.1'/></Cube>
      <Cube time='2024-03-01'><Cube currency='usd' rate='1.1'/><Cube currency='GBP' rate='-0.8'/><Cube currency='JPY' rate='abc'/><Cube currency='CHF' rate='0'/><Cube currency='SEK' rate='11.2'/></Cube></Cube>`;
    expect(parseEcbXml(xml)).toEqual([
      { date: '2024-03-01', rates: [{ currency: 'SEK', per_eur: 11.2 }] },
    ]);
    expect(parseEcbXml('<html><body>Service unavailable</body></html>')).toEqual([]);
    expect(parseEcbXml('')).toEqual([]);
  });
});
