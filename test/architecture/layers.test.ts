import { describe, expect, it } from 'vitest';

import { importCycles, imports, resolved, sourceFiles } from './sourceGraph.ts';

/**
 * The layers inside core/, lowest first. A folder may import its own files and folders of lower
 * tiers only; folders of one tier do not import each other. A new folder must be placed here.
 */
const TIERS: readonly (readonly string[])[] = [
  ['i18n'],
  ['errors'],
  ['domain'],
  ['store'],
  ['kernel'],
  ['auth', 'fx', 'imports', 'reminders'],
  ['ops'],
  ['pending'],
  ['assistant'],
  ['chat'],
  ['channels'],
  // core/index.ts, the adapters' entry.
  ['index.ts'],
];

function tierOf(folder: string): number {
  return TIERS.findIndex((tier) => tier.includes(folder));
}

/** `core/<folder>/…` → folder (`index.ts` for core/index.ts). */
function folderOf(file: string): string {
  return file.split('/')[1] ?? '';
}

describe('layers inside core', () => {
  it('places every folder of core/ in a tier', () => {
    const unplaced = [...new Set(sourceFiles('core').map(folderOf))].filter((f) => tierOf(f) < 0);
    expect(unplaced).toEqual([]);
  });

  it('imports only downward: domain ← store ← kernel ← ops ← pending ← assistant ← chat ← channels', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles('core')) {
      const from = folderOf(file);
      for (const spec of imports(file)) {
        const target = resolved(file, spec);
        if (target === null || !target.startsWith('core/')) continue;
        const to = folderOf(target);
        if (to === from) continue;
        if (tierOf(to) >= tierOf(from)) offenders.push(`${file} -> ${target}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('the source tree', () => {
  it('has no import cycle, type imports included', () => {
    const files = ['core', 'bot', 'mcp', 'miniapp', 'scripts', 'bench'].flatMap(sourceFiles);
    expect(importCycles(files)).toEqual([]);
  });
});
