import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, dir))) {
    const rel = path.join(dir, entry);
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.(ts|vue)$/.test(entry)) out.push(rel);
  }
  return out;
}

function imports(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [
    ...text.matchAll(
      /(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    ),
  ].map((m) => m[1] ?? m[2] ?? '');
}

function resolvesInto(file: string, spec: string, dirs: string[]): boolean {
  if (!spec.startsWith('.')) return false;
  const target = path.relative(root, path.resolve(root, path.dirname(file), spec));
  return dirs.some((d) => target === d || target.startsWith(`${d}/`));
}

/** Dependencies point inward: a change here must be deliberate. */
describe('architecture', () => {
  it('core/ imports nothing from bot/, mcp/ or miniapp/, nor any chat or MCP SDK', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles('core')) {
      for (const spec of imports(file)) {
        if (
          resolvesInto(file, spec, ['bot', 'mcp', 'miniapp']) ||
          /^(grammy|@grammyjs|@modelcontextprotocol|@slack)/.test(spec)
        )
          offenders.push(`${file} -> ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('mcp/ does not import the bot at run time, and the bot imports mcp/ only from its composition root and CLI', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles('mcp')) {
      const text = readFileSync(path.join(root, file), 'utf8');
      for (const spec of imports(file)) {
        if (
          resolvesInto(file, spec, ['bot', 'miniapp']) &&
          !new RegExp(
            `import type [^;]*['"]${spec.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"]`,
          ).test(text)
        )
          offenders.push(`${file} -> ${spec}`);
      }
    }
    for (const file of sourceFiles('bot')) {
      if (['bot/main.ts', 'bot/cli.ts'].includes(file)) continue;
      for (const spec of imports(file))
        if (resolvesInto(file, spec, ['mcp'])) offenders.push(`${file} -> ${spec}`);
    }
    expect(offenders).toEqual([]);
  });
});
