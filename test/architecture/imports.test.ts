import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { imports, resolved, root, sourceFiles } from './sourceGraph.ts';

function resolvesInto(file: string, spec: string, dirs: string[]): boolean {
  const target = resolved(file, spec);
  return target !== null && dirs.some((d) => target === d || target.startsWith(`${d}/`));
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

  it('mcp/ and miniapp/server/ do not import the bot at run time, and the bot imports them only from its composition root and CLI', () => {
    const offenders: string[] = [];
    const siblings: Array<[string, string[]]> = [
      ...sourceFiles('mcp').map((f): [string, string[]] => [f, ['bot', 'miniapp']]),
      ...sourceFiles('miniapp/server').map((f): [string, string[]] => [f, ['bot', 'mcp']]),
    ];
    for (const [file, others] of siblings) {
      const text = readFileSync(path.join(root, file), 'utf8');
      for (const spec of imports(file)) {
        if (
          resolvesInto(file, spec, others) &&
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
        if (resolvesInto(file, spec, ['mcp', 'miniapp'])) offenders.push(`${file} -> ${spec}`);
    }
    expect(offenders).toEqual([]);
  });

  it('adapters import core only through core/index.ts and core/chat/index.ts', () => {
    const offenders: string[] = [];
    for (const file of [
      ...sourceFiles('bot'),
      ...sourceFiles('mcp'),
      ...sourceFiles('miniapp/server'),
    ])
      for (const spec of imports(file)) {
        const target = resolved(file, spec);
        if (
          target?.startsWith('core/') &&
          !['core/index.ts', 'core/chat/index.ts'].includes(target)
        )
          offenders.push(`${file} -> ${target}`);
      }
    expect(offenders).toEqual([]);
  });
});
