import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import enWeb from '../../core/i18n/locales/en/web.json' with { type: 'json' };
import enAdd from '../../core/i18n/locales/en/webadd.json' with { type: 'json' };
import enAttention from '../../core/i18n/locales/en/webAttention.json' with { type: 'json' };
import enPolish from '../../core/i18n/locales/en/webPolish.json' with { type: 'json' };
import enDemo from '../../core/i18n/locales/en/webDemo.json' with { type: 'json' };
import esWeb from '../../core/i18n/locales/es/web.json' with { type: 'json' };
import esAdd from '../../core/i18n/locales/es/webadd.json' with { type: 'json' };
import esAttention from '../../core/i18n/locales/es/webAttention.json' with { type: 'json' };
import esPolish from '../../core/i18n/locales/es/webPolish.json' with { type: 'json' };
import esDemo from '../../core/i18n/locales/es/webDemo.json' with { type: 'json' };
import { CHANNELS } from '../../core/kernel/actor.ts';

/** The app's catalogs, as miniapp/src/lib/i18n.ts merges them. */
const en: Record<string, string> = { ...enWeb, ...enPolish, ...enAdd, ...enAttention, ...enDemo };
const es: Record<string, string> = { ...esWeb, ...esPolish, ...esAdd, ...esAttention, ...esDemo };

/**
 * Every text the app shows is a `web.ui.*` key of both locale files: a `t('…')` of the app's
 * source with no text would show its key to the reader.
 */
const SRC = fileURLToPath(new URL('../../miniapp/src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(path.join(dir, e.name))
      : /\.(vue|ts)$/.test(e.name)
        ? [path.join(dir, e.name)]
        : [],
  );
}

describe('the Mini App’s texts', () => {
  const keys = new Set<string>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bt\('([a-z0-9_.]+)'/g)) keys.add(`web.ui.${m[1]}`);
    // A count's text (`tn`) has its two plural forms.
    for (const m of text.matchAll(/\btn\('([a-z0-9_.]+)'/g))
      for (const form of ['one', 'other']) keys.add(`web.ui.${m[1]}.${form}`);
  }

  it('finds the texts the app uses', () => {
    expect(keys.size).toBeGreaterThan(100);
  });

  it('has every text the app uses in English and in Spanish', () => {
    const missing = [...keys].filter((k) => !(k in en) || !(k in es));
    expect(missing).toEqual([]);
  });

  it('has the texts a screen picks by a value (status, cycle, channel…) for every value', () => {
    const families: Record<string, readonly string[]> = {
      'web.ui.status.': ['active', 'trial', 'paused', 'cancelled'],
      'web.ui.charge.': ['expected', 'paid', 'skipped'],
      'web.ui.cycle.one.': ['day', 'week', 'month', 'year'],
      'web.ui.cycle.many.': ['day', 'week', 'month', 'year'],
      'web.ui.polish.unit_one.': ['day', 'week', 'month', 'year'],
      // Every channel an audit entry can name (the demo's seeded history included).
      'web.ui.channel.': CHANNELS,
      'web.ui.calendar.kind.': ['charge', 'trial_end', 'notice_deadline'],
      'web.ui.scope.': ['read', 'write', 'trusted'],
      // The Overview's "Needs attention" lines, by the kind of get_context's finding.
      'web.ui.attention.': [
        'trial_converting',
        'duplicate',
        'price_increase',
        'price_increase_from_zero',
        'yearly_vs_monthly',
      ],
    };
    const missing = Object.entries(families).flatMap(([prefix, values]) =>
      values.map((v) => prefix + v).filter((k) => !(k in en) || !(k in es)),
    );
    expect(missing).toEqual([]);
  });
});
