import { readdirSync, readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { t, TEXT_KEYS } from '../../../core/i18n/index.ts';
import { CHANNELS } from '../../../core/kernel/actor.ts';

const read = (locale: string): Record<string, string> =>
  JSON.parse(
    readFileSync(
      new URL(`../../../core/i18n/locales/${locale}/chat.json`, import.meta.url),
      'utf8',
    ),
  ) as Record<string, string>;

/** Every `'chat.…'` key written literally in the engine's sources. */
function keysUsedInSources(): string[] {
  const root = new URL('../../../core/chat/', import.meta.url);
  const files = readdirSync(root, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'));
  const keys = new Set<string>();
  for (const file of files) {
    for (const match of readFileSync(new URL(file, root), 'utf8').matchAll(
      /'(chat\.[a-z_.]+[a-z_])'/g,
    ))
      keys.add(match[1] ?? '');
  }
  return [...keys];
}

describe('the chat texts', () => {
  it('exist in English and Spanish with the same keys and placeholders', () => {
    const en = read('en');
    const es = read('es');
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(en)) {
      const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(placeholders(es[key] ?? ''), key).toEqual(placeholders(text));
      expect(es[key], key).not.toBe('');
    }
  });

  it('cover every key the engine names', () => {
    const missing = keysUsedInSources().filter((key) => !TEXT_KEYS.includes(key));
    expect(missing).toEqual([]);
  });

  it('have the dynamic families the engine builds keys from', () => {
    for (const unit of ['day', 'week', 'month', 'year'])
      for (const form of ['one', 'other', 'adjective'])
        expect(TEXT_KEYS).toContain(`chat.cycle.${unit}.${form}`);
    for (const kind of ['charge', 'trial_end', 'notice', 'price_increase'])
      expect(TEXT_KEYS).toContain(`chat.reminder.${kind}`);
    for (const status of ['active', 'trial', 'paused', 'cancelled'])
      expect(TEXT_KEYS).toContain(`chat.status.${status}`);
    // /activity names each entry's channel, the demo's seeded history included.
    for (const channel of CHANNELS) expect(TEXT_KEYS).toContain(`chat.channel.${channel}`);
    expect(t('es', 'chat.channel.demo')).toBe('demo de Exhale');
    expect(
      t('es', 'chat.reminder.charge', {
        name: 'Netflix',
        amount: '15.99 EUR',
        when: 'mañana',
        date: 'lun, 30 mar 2026',
      }),
    ).toBe('🔔 Netflix: se cobran 15.99 EUR mañana (lun, 30 mar 2026).');
  });
});
