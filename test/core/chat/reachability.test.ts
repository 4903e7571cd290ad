import { describe, expect, it } from 'vitest';

import { type ChatFeature, FEATURES } from '../../../core/chat/index.ts';
import { isWrite } from '../../../core/kernel/op.ts';
import { surfaceOps } from '../../../core/kernel/surface.ts';
import { catalog } from '../../../core/ops/catalog.ts';

/**
 * The chat is a complete client of the catalog: every write op offered on chat has a way in from
 * some registered feature, a command naming it or a button or answer that calls it (the feature's
 * `reaches`). The catalog drives it: a new write op fails here until chat reaches it, or it is
 * excluded from chat with a reason (`exclude: { chat: '…' }`).
 */
describe('every write op offered on chat is reachable from a chat command or button', () => {
  const features: readonly ChatFeature[] = FEATURES;
  const declared = new Set<string>(
    features.flatMap((f) => [
      ...(f.commands ?? []).flatMap((c) => (c.op ? [c.op] : [])),
      ...(f.reaches ?? []),
    ]),
  );
  const writes = surfaceOps(catalog, 'chat').filter(isWrite);

  it('lists no write op of the catalog without a way in from chat', () => {
    const unreachable = writes.map((op) => op.name).filter((name) => !declared.has(name));
    expect(unreachable).toEqual([]);
  });

  it('names only ops the catalog has, so a renamed op cannot hide behind a stale name', () => {
    const names = new Set<string>(catalog.map((op) => op.name));
    expect([...declared].filter((name) => !names.has(name))).toEqual([]);
  });

  it('gives every op excluded from chat a reason a person can read', () => {
    for (const op of catalog) {
      const reason = op.exclude?.chat;
      if (reason !== undefined) expect(reason.length, op.name).toBeGreaterThan(20);
    }
  });
});
