import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { strictInputOf } from '../../core/kernel/surface.ts';
import { catalog } from '../../core/ops/catalog.ts';
import {
  hoistRepeats,
  type JsonSchema,
  leanInput,
  leanOutput,
  referShapes,
  sharedShapes,
} from '../../mcp/leanSchema.ts';

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

  it('spells out small records (names and types) and outlines the rest to their type, with top-level descriptions only', () => {
    const money = z.object({ amount: z.string().describe('In its units.'), currency: z.string() });
    const fields = z.object({
      a: z.string(),
      b: z.string(),
      c: z.string(),
      d: z.int(),
      e: z.boolean(),
    });
    const schema = z.toJSONSchema(
      z.object({
        total: z.string().describe('Sum of the charges.'),
        status: z.enum(['open', 'done']),
        count: z.number().int().optional(),
        category: z.object({ id: z.string(), name: z.string() }).nullable(),
        items: z
          .array(
            z.object({
              id: z.string().min(1).max(90).describe('An id.'),
              note: z.string().optional(),
            }),
          )
          .describe('The charges.'),
        // Five fields: the result shows them; a record inside a record is outlined too.
        summary: fields,
        // A list of larger records too (unless another tool returns them: see sharedShapes).
        entries: z.array(fields),
        line: z.object({ price: money, on: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
        price: money,
      }),
      { io: 'output' },
    ) as JsonSchema;
    const { $schema: _dialect, ...lean } = leanOutput(schema);
    const string = { type: 'string' };
    expect(lean).toEqual({
      type: 'object',
      properties: {
        total: { type: 'string', description: 'Sum of the charges.' },
        status: { type: 'string', enum: ['open', 'done'] },
        count: { type: 'integer' },
        category: {
          type: ['object', 'null'],
          properties: { id: string, name: string },
          additionalProperties: false,
        },
        items: {
          type: 'array',
          description: 'The charges.',
          items: {
            type: 'object',
            properties: { id: string, note: string },
            required: ['id'],
            additionalProperties: false,
          },
        },
        summary: { type: 'object' },
        entries: { type: 'array' },
        line: { type: 'object' },
        price: {
          type: 'object',
          properties: { amount: string, currency: string },
          additionalProperties: false,
        },
      },
      // count may be missing, so the list stays; a list naming every field would go.
      required: ['total', 'status', 'category', 'items', 'summary', 'entries', 'line', 'price'],
      additionalProperties: false,
    });
    const all = z.toJSONSchema(z.object({ a: z.string() }), { io: 'output' }) as JsonSchema;
    expect(leanOutput(all).required).toBeUndefined();
  });

  it('leaves out what bounds a caller: lengths, patterns, formats and list sizes', () => {
    const schema = z.toJSONSchema(
      z.object({
        url: z.url().max(2048),
        code: z.string().regex(/^[A-Z]{3}$/),
        tags: z.array(z.string()).min(1).max(20),
      }),
      { io: 'output' },
    ) as JsonSchema;
    expect(leanOutput(schema).properties).toEqual({
      url: { type: 'string' },
      code: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
    });
  });
});

describe('outputs several tools return', () => {
  const subscription = z.object({
    id: z.string(),
    name: z.string(),
    amount: z.string(),
    currency: z.string(),
    status: z.enum(['active', 'trial', 'paused', 'cancelled']),
    next_charge_date: z.string().nullable(),
    monthly_cost: z.string(),
  });
  /** What a client receives: the JSON, without in-process markers. */
  const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
  /** An output's JSON Schema as the MCP layer compares it: without `$schema`. */
  const json = (schema: z.ZodType): JsonSchema => {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'output' }) as JsonSchema;
    return rest;
  };
  const list = json(z.object({ items: z.array(subscription), total: z.number().int() }));
  const one = json(subscription);
  const shapes = sharedShapes([
    { tool: 'list_subscriptions', reads: true, schema: list },
    { tool: 'update_subscription', reads: false, schema: one },
    { tool: 'get_subscription', reads: true, schema: one },
  ]);

  it('are spelled out by the first tool that reads them, and named by the others', () => {
    expect(wire(referShapes(one, shapes, 'get_subscription'))).toEqual(one);
    const referred = { type: 'object', description: "Shaped as get_subscription's output." };
    expect(wire(leanOutput(referShapes(one, shapes, 'update_subscription')))).toEqual(referred);
    expect(wire(leanOutput(referShapes(list, shapes, 'list_subscriptions')).properties)).toEqual({
      items: { type: 'array', items: referred },
      total: { type: 'integer' },
    });
  });

  it('still accept what the tool returns', async () => {
    const { fromJsonSchema } = await import('@modelcontextprotocol/client');
    const value = {
      id: 's1',
      name: 'Netflix',
      amount: '15.99',
      currency: 'EUR',
      status: 'active',
      next_charge_date: null,
      monthly_cost: '15.99',
    };
    for (const [schema, tool, result] of [
      [one, 'update_subscription', value],
      [list, 'list_subscriptions', { items: [value], total: 1 }],
    ] as const) {
      const lean = leanOutput(referShapes(schema, shapes, tool));
      const verdict = await fromJsonSchema(lean)['~standard'].validate(result);
      expect('issues' in verdict ? verdict.issues : undefined).toBeUndefined();
    }
  });

  it('stay spelled out where they are too small for a reference to be shorter', () => {
    const tag = z.object({ id: z.string(), name: z.string() });
    const tags = json(z.object({ items: z.array(tag) }));
    const small = sharedShapes([
      { tool: 'create_tag', reads: false, schema: json(tag) },
      { tool: 'list_tags', reads: true, schema: tags },
    ]);
    expect(referShapes(tags, small, 'list_tags')).toEqual(tags);
  });

  const charge = z.object({
    id: z.string().nullable(),
    subscription_id: z.string(),
    subscription_name: z.string(),
    due_date: z.string(),
    status: z.enum(['expected', 'paid', 'skipped']),
    amount: z.string(),
    currency: z.string(),
  });
  const charges = json(z.object({ items: z.array(charge) }));
  const marked = json(charge);
  const listing = { tool: 'list_charges', reads: true, schema: charges };
  const catalog = [listing, { tool: 'mark_charge_paid', reads: false, schema: marked }];

  it('are spelled out as the items of a reading list tool when no reading tool returns one whole', () => {
    const all = sharedShapes(catalog);
    const items = wire(leanOutput(referShapes(charges, all, 'list_charges')).properties);
    expect(items).toMatchObject({ items: { type: 'array', items: { type: 'object' } } });
    expect(Object.keys(JSON.parse(JSON.stringify(items)).items.items.properties)).toEqual(
      Object.keys(charge.shape),
    );
    expect(wire(leanOutput(referShapes(marked, all, 'mark_charge_paid')))).toEqual({
      type: 'object',
      description: "Shaped as one of list_charges' items.",
    });
  });

  it('are spelled out for a list without the tools that change them (a read token), as the catalog shares them', () => {
    const readOnly = sharedShapes([listing], catalog);
    const lean = wire(leanOutput(referShapes(charges, readOnly, 'list_charges')));
    expect(JSON.stringify(lean)).toContain('"subscription_name":{"type":"string"}');
    // Without the catalog, a list tool's only record is not shared: it is outlined.
    const alone = sharedShapes([listing]);
    expect(wire(leanOutput(referShapes(charges, alone, 'list_charges')).properties)).toEqual({
      items: { type: 'array' },
    });
  });
});

describe('lean input schemas', () => {
  it('leave out shared descriptions, id bounds, safe-integer bounds and defaults their description names', () => {
    const date = 'A calendar date YYYY-MM-DD.';
    const schema = z.toJSONSchema(
      z.object({
        id: z.string().min(1).max(90),
        name: z.string().min(1).max(120),
        on: z.string().describe(date),
        offset: z.number().int().min(0).default(0),
        sort: z.enum(['name', 'date']).default('name').describe('Default: by name.'),
        color: z.string().describe('A colour.').nullable().describe('Its colour, or null.'),
      }),
      { io: 'input' },
    ) as JsonSchema;
    expect(leanInput(schema, new Set([date])).properties).toEqual({
      id: { type: 'string' },
      name: { type: 'string', minLength: 1, maxLength: 120 },
      on: { type: 'string' },
      offset: { type: 'integer', minimum: 0, default: 0 },
      sort: { type: 'string', enum: ['name', 'date'], description: 'Default: by name.' },
      color: { description: 'Its colour, or null.', anyOf: [{ type: 'string' }, { type: 'null' }] },
    });
  });

  it('write a record of anything as any object, without the untyped `{}` zod gives its values', () => {
    const schema = z.toJSONSchema(
      z.object({
        document: z.union([
          z.string(),
          z.array(z.record(z.string(), z.unknown())),
          z.record(z.string(), z.unknown()),
        ]),
        counts: z.record(z.string(), z.int()),
      }),
      { io: 'input' },
    ) as JsonSchema;
    expect(leanInput(schema, new Set()).properties).toEqual({
      document: {
        anyOf: [
          { type: 'string' },
          { type: 'array', items: { type: 'object' } },
          { type: 'object' },
        ],
      },
      // A record whose values say something keeps it.
      counts: {
        type: 'object',
        propertyNames: { type: 'string' },
        additionalProperties: { type: 'integer' },
      },
    });
  });
});
