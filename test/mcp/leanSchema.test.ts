import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { strictInputOf } from '../../core/kernel/surface.ts';
import { catalog } from '../../core/ops/catalog.ts';
import { hoistRepeats, type JsonSchema, leanOutput } from '../../mcp/leanSchema.ts';

/** The schema with every `$ref` into its own `$defs` replaced by the definition: what it means. */
function inlined(schema: JsonSchema): unknown {
  const defs = (schema.$defs ?? {}) as Record<string, unknown>;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    const entries = Object.entries(node).filter(([key]) => key !== '$defs');
    const ref = entries.find(([key]) => key === '$ref')?.[1];
    if (typeof ref === 'string' && ref.startsWith('#/$defs/'))
      return walk(defs[ref.slice('#/$defs/'.length)]);
    return Object.fromEntries(entries.map(([key, value]) => [key, walk(value)]));
  };
  return walk(schema);
}

describe('hoisting repeated subschemas into $defs', () => {
  it.each(catalog.map((op) => [op.name, op] as const))(
    '%s: its input and output schemas mean exactly what they meant inline',
    (_name, op) => {
      for (const raw of [
        z.toJSONSchema(strictInputOf(op), { io: 'input', unrepresentable: 'any' }),
        z.toJSONSchema(op.output, { io: 'output', unrepresentable: 'any' }),
        // zod's JSONSchema type is an object schema: a JsonSchema record.
      ] as JsonSchema[]) {
        const hoisted = hoistRepeats(raw);
        expect(inlined(hoisted)).toEqual(raw);
        expect(JSON.stringify(hoisted).length).toBeLessThanOrEqual(JSON.stringify(raw).length);
      }
    },
  );

  it('defines a shape used twice once, named after the property it describes', () => {
    const ref = {
      type: 'object',
      properties: { id: { type: 'string' }, name: { type: 'string' } },
    };
    const schema = {
      type: 'object',
      properties: { a: { type: 'array', items: ref }, b: ref, c: ref },
    };
    const hoisted = hoistRepeats(schema);
    expect(hoisted.$defs).toEqual({ shared: ref });
    expect(hoisted.properties).toEqual({
      a: { type: 'array', items: { $ref: '#/$defs/shared' } },
      b: { $ref: '#/$defs/shared' },
      c: { $ref: '#/$defs/shared' },
    });
    expect(hoistRepeats({ type: 'object', properties: { b: ref } })).toEqual({
      type: 'object',
      properties: { b: ref },
    });
  });
});

describe('lean output schemas', () => {
  it('let null through a nullable enum once the null branch is folded into a type list', () => {
    const schema = z.toJSONSchema(
      z.object({ provider: z.enum(['openai', 'anthropic']).nullable() }),
      {
        io: 'output',
      },
    ) as JsonSchema;
    const lean = leanOutput(schema);
    expect(lean.properties).toEqual({
      provider: { type: ['string', 'null'], enum: ['openai', 'anthropic', null] },
    });
  });

  it('keeps top-level field descriptions, drops nested ones, and the required list only when it names every field', () => {
    const schema = z.toJSONSchema(
      z.object({
        total: z.string().describe('Sum of the charges.'),
        count: z.number().int(),
        items: z.array(
          z.object({
            id: z.string().min(1).max(90).describe('An id.'),
            note: z.string().optional(),
          }),
        ),
      }),
      { io: 'output' },
    ) as JsonSchema;
    const { $schema: _dialect, ...lean } = leanOutput(schema);
    expect(lean).toEqual({
      type: 'object',
      properties: {
        total: { type: 'string', description: 'Sum of the charges.' },
        count: { type: 'integer' },
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { id: { type: 'string' }, note: { type: 'string' } },
            required: ['id'],
            additionalProperties: false,
          },
        },
      },
      additionalProperties: false,
    });
  });
});
