import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  hoistRepeats,
  type JsonSchema,
  leanInput,
  leanOutput,
  referShapes,
  sharedShapes,
  type ToolOutput,
} from './leanSchema.ts';
import { SHARED_FIELD_DESCRIPTIONS } from './instructions.ts';
import { type AnyOp, strictInputOf } from '../core/index.ts';

export type { JsonSchema };

interface OpSchemas {
  input: StandardSchemaWithJSON;
  output: StandardSchemaWithJSON;
  inputJson: JsonSchema;
  outputJson: JsonSchema;
}

const cache = new WeakMap<AnyOp, OpSchemas>();

/** Keywords that describe the whole value and stay outside the branches of a split type. */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/**
 * `type: ["string", "null"]` is legal but clients that map schemas onto a single-type dialect
 * (Gemini's OpenAPI subset) reject it; `anyOf` branches with one type each travel everywhere.
 */
function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node as JsonSchema).map(([k, v]) => [k, portable(v)] as const);
  const out = Object.fromEntries(entries) as JsonSchema;
  if (!Array.isArray(out.type)) return out;
  const types = out.type as string[];
  const outer: JsonSchema = {};
  const inner: JsonSchema = {};
  for (const [key, value] of Object.entries(out)) {
    if (key === 'type') continue;
    (ANNOTATIONS.has(key) ? outer : inner)[key] = value;
  }
  return {
    ...outer,
    anyOf: types.map((type) => (type === 'null' ? { type } : { type, ...inner })),
  };
}

/** An output schema without `additionalProperties: false`: it only says what comes back, and every byte is context. */
function lean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(lean);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node as JsonSchema)
      .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
      .map(([key, value]) => [key, lean(value)]),
  );
}

/**
 * JSON Schema of a zod schema without `$schema` (2020-12 is MCP's default dialect). Inputs are made
 * portable to single-type dialects, which function-calling APIs use; outputs are kept lean (see
 * `leanOutput`); in both, a subschema repeated inside the schema is defined once in `$defs`.
 */
export function jsonSchemaOf(
  schema: z.ZodType,
  io: 'input' | 'output',
  refer: (raw: JsonSchema) => JsonSchema = (raw) => raw,
): JsonSchema {
  // Every pass maps a schema object to a schema object.
  return hoistRepeats(
    io === 'input'
      ? leanInput(portable(rawJsonSchema(schema, io)) as JsonSchema, SHARED_FIELD_DESCRIPTIONS)
      : leanOutput(refer(rawOutput(schema))),
  );
}

/** zod's JSON Schema of `schema` without `$schema`. */
function rawJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** An output's JSON Schema before the lean passes that depend on depth: what `sharedShapes` compares. */
function rawOutput(schema: z.ZodType): JsonSchema {
  // `lean` maps a schema object to a schema object.
  return lean(rawJsonSchema(schema, 'output')) as JsonSchema;
}

/**
 * A Standard Schema that advertises a JSON Schema but accepts any value. The SDK would otherwise
 * validate tool arguments and results a second time, in English and with its own wording; the
 * kernel already parses every input (strictly, in the member's language) and every output.
 */
function advertised(json: JsonSchema): StandardSchemaWithJSON {
  return {
    '~standard': {
      version: 1,
      vendor: 'exhale',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

/** One tool list's schemas, kept with the ops they were built from. */
interface ListSchemas {
  ops: readonly AnyOp[];
  catalog: readonly AnyOp[];
  schemas: Map<AnyOp, OpSchemas>;
}

/** Per tool list (a scope and role see a few distinct lists), keyed by its tool names. */
const lists = new Map<string, ListSchemas>();

/**
 * The input and output schemas of every op of one tool list as tools/list shows them, built once
 * per list: a record another tool of the list already spells out is referred to by name
 * (`sharedShapes`; `catalog`, every op MCP offers anyone, decides which records are shared), so
 * the schemas depend on the list, not on the op alone.
 */
export function toolSchemas(
  ops: readonly AnyOp[],
  catalog: readonly AnyOp[] = ops,
): (op: AnyOp) => OpSchemas {
  const key = ops.map((op) => op.name).join(',');
  let list = lists.get(key);
  if (
    !list ||
    list.catalog !== catalog ||
    list.ops.length !== ops.length ||
    list.ops.some((op, i) => op !== ops[i])
  ) {
    const outputOf = (op: AnyOp): ToolOutput => ({
      tool: op.name,
      reads: op.effect === 'read',
      schema: rawOutput(op.output),
    });
    const shapes = sharedShapes(ops.map(outputOf), catalog.map(outputOf));
    const schemas = new Map<AnyOp, OpSchemas>();
    for (const op of ops) {
      const inputJson = opSchemas(op).inputJson;
      const outputJson = jsonSchemaOf(op.output, 'output', (raw) =>
        referShapes(raw, shapes, op.name),
      );
      schemas.set(op, {
        input: advertised(inputJson),
        output: advertised(outputJson),
        inputJson,
        outputJson,
      });
    }
    list = { ops: [...ops], catalog, schemas };
    lists.set(key, list);
  }
  const { schemas } = list;
  return (op) => schemas.get(op) ?? opSchemas(op);
}

/** The input and output schemas of one op on its own (every output spelled out), built once per op. */
export function opSchemas(op: AnyOp): OpSchemas {
  let schemas = cache.get(op);
  if (!schemas) {
    const inputJson = jsonSchemaOf(strictInputOf(op), 'input');
    const outputJson = jsonSchemaOf(op.output, 'output');
    schemas = {
      input: advertised(inputJson),
      output: advertised(outputJson),
      inputJson,
      outputJson,
    };
    cache.set(op, schemas);
  }
  return schemas;
}

/** The same pass-through wrapper for the few schemas the MCP layer defines itself (the confirm tool). */
export function advertisedZod(schema: z.ZodType, io: 'input' | 'output'): StandardSchemaWithJSON {
  return advertised(jsonSchemaOf(schema, io));
}
