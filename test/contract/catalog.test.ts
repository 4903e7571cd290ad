import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { newcomerActor } from '../../core/kernel/actor.ts';
import { isWrite, SURFACES } from '../../core/kernel/op.ts';
import { catalog } from '../../core/ops/catalog.ts';

/** Names, texts and schemas every op must have: surfaces are generated from them. */
describe('the catalog', () => {
  it('names every op once, in the strictest form tool names allow', () => {
    const names = catalog.map((op) => op.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
  });

  it.each(catalog.map((op) => [op.name, op] as const))(
    '%s has a title, a description a model can act on, and JSON schemas',
    (_name, op) => {
      expect(op.title.length).toBeGreaterThan(3);
      expect(op.title.length).toBeLessThanOrEqual(60);
      expect(op.description.length).toBeGreaterThanOrEqual(40);
      expect(op.description).toMatch(/\.$/);
      expect(op.input).toBeInstanceOf(z.ZodObject);
      const input = z.toJSONSchema(op.input, { io: 'input' });
      expect(input.type).toBe('object');
      const output = z.toJSONSchema(op.output, { io: 'output' });
      expect(output.type).toBe('object');
    },
  );

  it.each(catalog.map((op) => [op.name, op] as const))(
    '%s declares a scope that fits its effect and a reason for every exclusion',
    (_name, op) => {
      if (!isWrite(op)) expect(op.scope).toBe('read');
      else expect(op.scope).not.toBe('read');
      for (const surface of Object.keys(op.exclude ?? {})) expect(SURFACES).toContain(surface);
      for (const reason of Object.values(op.exclude ?? {}))
        expect(String(reason).length).toBeGreaterThan(10);
    },
  );

  it('keeps secrets and bulk exports off MCP', () => {
    const onMcp = new Set<string>(
      catalog.filter((op) => op.exclude?.mcp === undefined).map((op) => op.name),
    );
    for (const name of ['create_token', 'export_data', 'create_household', 'join_household'])
      expect(onMcp.has(name)).toBe(false);
  });

  it('gives newcomers only the ops that create or join a household', async () => {
    const { createTestHousehold } = await import('../helpers/testCore.ts');
    const h = await createTestHousehold();
    try {
      const stranger = newcomerActor('telegram', 'en');
      await expect(h.core.invoke('list_subscriptions', stranger, {})).rejects.toMatchObject({
        code: 'forbidden',
      });
    } finally {
      await h.close();
    }
  });
});
