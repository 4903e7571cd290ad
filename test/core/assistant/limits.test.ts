import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { LIMITS } from '../../../core/assistant/limits.ts';

describe('the limits table', () => {
  it('is the same in code and in docs/assistant.md', () => {
    const doc = readFileSync(
      path.resolve(import.meta.dirname, '../../../docs/assistant.md'),
      'utf8',
    );
    const rows = new Map<string, number>();
    for (const match of doc.matchAll(/^\|[^|]+\|\s*(\d+)\s*\|\s*`(\w+)`\s*\|$/gm))
      rows.set(match[2] ?? '', Number(match[1]));
    expect(Object.fromEntries(rows)).toEqual({ ...LIMITS });
  });

  it('are the ones the issue sets', () => {
    expect(LIMITS).toMatchObject({
      callsPerMessage: 6,
      changesPerMessage: 5,
      maxTokensPerCall: 8192,
      callTimeoutMs: 60_000,
      messageTimeoutMs: 150_000,
      messageBytes: 4000,
      toolResultBytes: 30_000,
      rateBurst: 12,
      rateIntervalMs: 15_000,
      pictureBytes: 5 * 1024 * 1024,
      pdfBytes: 20 * 1024 * 1024,
      textBytes: 200 * 1024,
      proposalTtlMs: 30 * 60_000,
    });
  });
});
