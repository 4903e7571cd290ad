import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { newcomerActor } from '../../core/kernel/actor.ts';
import { OpError } from '../../core/errors/index.ts';
import { type AnyOp, isWrite } from '../../core/kernel/op.ts';
import { catalog } from '../../core/ops/catalog.ts';
import { dumpDatabase } from '../helpers/dump.ts';
import { READ_SAMPLES, WRITE_SAMPLES } from './samples.ts';
import { type Seed, seedHousehold } from './seed.ts';

interface JsonProp {
  type?: string | string[];
  maxLength?: number;
  anyOf?: JsonProp[];
}

/** A value of the wrong JSON type for a property: a number for text, text for anything else. */
function wrongType(prop: JsonProp): unknown {
  const types = [prop.type, ...(prop.anyOf ?? []).map((p) => p.type)].flat().filter(Boolean);
  return types.includes('string') ? 12345 : 'not-the-right-type';
}

async function baseInput(
  op: AnyOp,
  seed: Seed,
): Promise<{ input: Record<string, unknown>; actor: Seed['owner'] } | null> {
  const write = WRITE_SAMPLES[op.name];
  if (write) {
    const sample = await write(seed);
    if (sample.newcomer)
      return { input: sample.input as Record<string, unknown>, actor: newcomerActor('cli', 'en') };
    return { input: sample.input as Record<string, unknown>, actor: sample.actor ?? seed.owner };
  }
  const read = READ_SAMPLES[op.name];
  if (read) return { input: read(seed) as Record<string, unknown>, actor: seed.owner };
  const required =
    (z.toJSONSchema(op.input, { io: 'input' }) as { required?: string[] }).required ?? [];
  return required.length === 0 ? { input: {}, actor: seed.owner } : null;
}

async function expectRefused(call: Promise<unknown>, codes: string[]): Promise<OpError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'the call should have been refused').toBeInstanceOf(OpError);
  expect(codes).toContain((error as OpError).code);
  return error as OpError;
}

/**
 * Bad input everywhere, generated from each op's schema: wrong types, unknown fields, oversize
 * strings, unknown ids, another member's private subscription. Each gets a clear error (in Spanish
 * for a Spanish speaker) and writes nothing.
 */
describe('bad input to any op', () => {
  let seed: Seed;
  beforeAll(async () => {
    seed = await seedHousehold();
  });
  afterAll(async () => seed.h.close());

  it('has a base input for every op with required fields', async () => {
    const missing: string[] = [];
    for (const op of catalog) if (!(await baseInput(op, seed))) missing.push(op.name);
    expect(missing).toEqual([]);
  });

  it.each(catalog.map((op) => [op.name, op] as const))(
    '%s refuses malformed input with a translated error and writes nothing',
    async (_name, op) => {
      const base = await baseInput(op, seed);
      if (!base) throw new Error(`no base input for ${op.name}`);
      const before = await dumpDatabase(seed.h.db);
      const call = (input: unknown, actor = base.actor) =>
        seed.h.core.invoke(op.name, actor, input);

      const notObject = await expectRefused(call('hello'), ['invalid_input']);
      expect(notObject.render('en')).toContain("isn't valid");
      const spanish = { ...base.actor, locale: 'es' as const };
      const unknownField = await expectRefused(
        call({ ...base.input, surprise_field: 1 }, spanish),
        ['invalid_input'],
      );
      expect(unknownField.render('es')).toContain('surprise_field');

      const schema = z.toJSONSchema(op.input, { io: 'input' }) as {
        properties?: Record<string, JsonProp>;
      };
      for (const [key, prop] of Object.entries(schema.properties ?? {})) {
        const typed = await expectRefused(call({ ...base.input, [key]: wrongType(prop) }), [
          'invalid_input',
        ]);
        expect(typed.issues.map((i) => i.path.split('.')[0])).toContain(key);
        if (prop.maxLength !== undefined)
          await expectRefused(call({ ...base.input, [key]: 'x'.repeat(prop.maxLength + 1) }), [
            'invalid_input',
          ]);
      }
      if (isWrite(op)) expect(await dumpDatabase(seed.h.db)).toBe(before);
    },
  );

  it.each(
    catalog
      .filter((op) => op.name in WRITE_SAMPLES || op.name in READ_SAMPLES)
      .map((op) => [op.name, op] as const),
  )(
    '%s answers "not found" for unknown ids and for another member\'s private subscription',
    async (_name, op) => {
      const base = await baseInput(op, seed);
      if (!base) return;
      const idKeys = Object.keys(base.input).filter(
        (k) => (k === 'id' || k.endsWith('_id')) && typeof base.input[k] === 'string',
      );
      const before = await dumpDatabase(seed.h.db);
      for (const key of idKeys) {
        const error = await expectRefused(
          seed.h.core.invoke(op.name, base.actor, { ...base.input, [key]: 'nope_0000' }),
          ['not_found'],
        );
        expect(error.render('en')).toContain('nope_0000');
        if (base.input[key] === seed.netflix || base.input[key] === seed.spotify) {
          await expectRefused(
            seed.h.core.invoke(op.name, base.actor, { ...base.input, [key]: seed.privateGym }),
            ['not_found'],
          );
        }
      }
      expect(await dumpDatabase(seed.h.db)).toBe(before);
    },
  );
});
