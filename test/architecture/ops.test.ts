import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { catalog } from '../../core/ops/catalog.ts';
import { imports, root } from './sourceGraph.ts';

const OPS = 'core/ops';
const areas = readdirSync(path.join(root, OPS)).filter(
  (entry) => statSync(path.join(root, OPS, entry)).isDirectory() && entry !== 'shared',
);
const read = (rel: string): string => readFileSync(path.join(root, rel), 'utf8');

/** How the op files of the catalog are laid out (AGENTS.md, "Add an op"). */
describe('the ops folders', () => {
  it('reads areas only in catalog.ts, each through its index.ts', () => {
    expect(imports(`${OPS}/catalog.ts`).filter((s) => s.startsWith('./'))).toEqual(
      areas.map((area) => `./${area}/index.ts`).sort(),
    );
  });

  it('keeps one op per file at the top of an area, and every helper apart in _lib/', () => {
    const misplaced: string[] = [];
    for (const area of areas) {
      for (const entry of readdirSync(path.join(root, OPS, area))) {
        if (entry === 'index.ts' || entry === '_lib') continue;
        const text = read(`${OPS}/${area}/${entry}`);
        if ((text.match(/defineOp\(/g) ?? []).length !== 1) misplaced.push(`${area}/${entry}`);
      }
      const lib = path.join(root, OPS, area, '_lib');
      const libs = existsSync(lib) ? readdirSync(lib) : [];
      for (const lib of libs)
        if (read(`${OPS}/${area}/_lib/${lib}`).includes('defineOp('))
          misplaced.push(`${area}/_lib/${lib}`);
    }
    expect(misplaced).toEqual([]);
  });

  it('puts every op file of an area into the catalog, named as its file', () => {
    const names = new Set<string>(catalog.map((op) => op.name));
    const missing: string[] = [];
    for (const area of areas)
      for (const entry of readdirSync(path.join(root, OPS, area))) {
        if (!entry.endsWith('.ts') || entry === 'index.ts') continue;
        const snake = entry.replace(/\.ts$/, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
        if (!names.has(snake)) missing.push(`${area}/${entry}`);
      }
    expect(missing).toEqual([]);
  });
});
