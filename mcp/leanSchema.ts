/**
 * Post-passes over the JSON Schemas zod generates, so tools/list says each thing once. Every tool's
 * schema stays self-contained (a client resolves `$ref` only inside the schema it was given), so
 * sharing happens inside one schema: a subschema repeated there moves to `$defs`.
 */
export type JsonSchema = Record<string, unknown>;

/** Keywords whose value is one subschema, a list of them, or a map of them (JSON Schema 2020-12). */
const ONE = ['items', 'not', 'additionalProperties', 'contains', 'if', 'then', 'else'] as const;
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const MAP = ['properties', 'patternProperties', '$defs'] as const;

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of `node` with `f` applied to each direct subschema (never to enum values or defaults). */
function mapSubschemas(
  node: JsonSchema,
  f: (child: JsonSchema, name: string | null) => JsonSchema,
): JsonSchema {
  const out: JsonSchema = { ...node };
  for (const key of ONE) {
    const child = out[key];
    if (isSchema(child)) out[key] = f(child, null);
  }
  for (const key of LIST) {
    const children = out[key];
    if (Array.isArray(children))
      out[key] = children.map((child: unknown) => (isSchema(child) ? f(child, null) : child));
  }
  for (const key of MAP) {
    const children = out[key];
    if (isSchema(children))
      out[key] = Object.fromEntries(
        Object.entries(children).map(([name, child]) => [
          name,
          isSchema(child) ? f(child, name) : child,
        ]),
      );
  }
  return out;
}

/**
 * Marks a subschema `referShapes` put in place of a shape another tool spells out: its description
 * names that tool, so it survives at every depth (a symbol: never part of the JSON a client sees).
 */
const SHAPED_AS = Symbol('shapedAs');

/** Marks a shape the tool itself spells out: outlined nowhere, like a result of its own. */
const OWNED = Symbol('owned');

/** Shapes shorter than this are spelled out wherever they occur: a reference would not be shorter. */
const MIN_SHARED_SHAPE = 200;

/** Where a shared shape is spelled out: a tool's whole output, or the items of one of its lists. */
export interface ShapeOwner {
  tool: string;
  /** The top-level list whose items it is; null for the whole output. */
  list: string | null;
}

/** One tool's raw output schema, as `sharedShapes` reads it. */
export interface ToolOutput {
  tool: string;
  reads: boolean;
  schema: JsonSchema;
}

/** A result's records that may be shared: the whole output, and the items of its top-level lists. */
function records(schema: JsonSchema): Array<{ list: string | null; json: string }> {
  const found: Array<{ list: string | null; json: string }> = [
    { list: null, json: JSON.stringify(schema) },
  ];
  const { properties } = schema;
  if (isSchema(properties))
    for (const [list, field] of Object.entries(properties))
      if (isSchema(field) && isSchema(field.items) && isSchema(field.items.properties))
        found.push({ list, json: JSON.stringify(field.items) });
  return found;
}

/** Every subschema's JSON in `schema`, once each. */
function subschemaJson(schema: JsonSchema, into = new Set<string>()): Set<string> {
  into.add(JSON.stringify(schema));
  mapSubschemas(schema, (child) => {
    subschemaJson(child, into);
    return child;
  });
  return into;
}

/**
 * The records several tools of the catalog return (a subscription, a charge, a category, a
 * member), each spelled out once across a tool list by a reading tool: by its whole output, or
 * else by the items of one of its lists, keyed by its JSON. Another tool's output that holds the
 * same record (create_subscription's result, mark_charge_paid's) refers to that tool by name
 * instead of repeating it. `catalog` (every tool any token may see) decides which records are shared, so a
 * list without the other tools (a read token's) still spells them out.
 */
export function sharedShapes(
  outputs: readonly ToolOutput[],
  catalog: readonly ToolOutput[] = outputs,
): Map<string, ShapeOwner> {
  const tools = new Map<string, number>();
  for (const { schema } of catalog)
    for (const json of subschemaJson(schema)) tools.set(json, (tools.get(json) ?? 0) + 1);
  const shapes = new Map<string, ShapeOwner>();
  // Only a reading tool spells a shared record out for others: it is listed for every token that
  // sees a tool changing the record, and "shaped as delete_category's output" would puzzle.
  const reads = outputs.filter((o) => o.reads);
  for (const whole of [true, false])
    for (const { tool, schema } of reads)
      for (const { list, json } of records(schema))
        if (
          (list === null) === whole &&
          json.length >= MIN_SHARED_SHAPE &&
          (tools.get(json) ?? 0) > 1 &&
          !shapes.has(json)
        )
          shapes.set(json, { tool, list });
  return shapes;
}

/** "list_charges'", "get_subscription's". */
const possessive = (name: string): string => (name.endsWith('s') ? `${name}'` : `${name}'s`);

/**
 * `schema` (the raw output of `tool`) with every subschema that is a shape another tool spells out
 * in `shapes` replaced by an object naming that tool, and the shapes `tool` spells out itself
 * marked to be spelled out in full. Only ever looser: every result still validates.
 */
export function referShapes(
  schema: JsonSchema,
  shapes: ReadonlyMap<string, ShapeOwner>,
  tool: string,
): JsonSchema {
  const owner = shapes.get(JSON.stringify(schema));
  if (owner !== undefined && owner.tool !== tool)
    return {
      type: 'object',
      description:
        owner.list === null
          ? `Shaped as ${possessive(owner.tool)} output.`
          : `Shaped as one of ${possessive(owner.tool)} ${owner.list}.`,
      [SHAPED_AS]: owner.tool,
    };
  const out = mapSubschemas(schema, (child) => referShapes(child, shapes, tool));
  return owner === undefined ? out : { ...out, [OWNED]: true };
}

/** zod's bounds for `z.number().int()`: the safe integer range, which says nothing to a reader. */
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * An output schema as a description of what comes back: field names, types, enums and nullability,
 * with the descriptions of top-level fields only (nested ones restate what the tool's description
 * and the top-level fields say), no length, pattern, format or safe-integer bounds (validating what
 * the server produced needs none), and no `required` list where every field is always present (the
 * server instructions say so once). A small record inside the result (at most MAX_SMALL_FIELDS
 * scalar fields: a cycle, a category or tag reference, a share, an amount with its currency) is
 * spelled out with its field names and types, and so is a list of them or of scalars; a larger
 * one is outlined to its type (the result shows its fields), except a record several tools return,
 * spelled out in full by one reading tool and named by the others (`sharedShapes`). Only ever
 * looser than the output, so every result still validates.
 */
export function leanOutput(schema: JsonSchema, depth = 0): JsonSchema {
  // A shared record the tool spells out reads as a result of its own, wherever it is.
  if (OWNED in schema) depth = 0;
  if (depth >= 1 && !(SHAPED_AS in schema)) schema = outline(schema, depth === 1);
  let node = mapSubschemas(schema, (child, name) =>
    // A property is one level down; a branch (anyOf, items) stays on its parent's level.
    leanOutput(child, name === null ? depth : depth + 1),
  );
  if (depth > 1 && !(SHAPED_AS in node)) delete node.description;
  for (const key of UNBOUNDED) delete node[key];
  if (node.minimum === -SAFE) delete node.minimum;
  if (node.maximum === SAFE) delete node.maximum;
  anyObject(node);
  const { required, properties } = node;
  if (
    Array.isArray(required) &&
    isSchema(properties) &&
    required.length === Object.keys(properties).length
  )
    delete node.required;
  // { anyOf: [X, { type: 'null' }] } with X of one type reads the same as X with a type list.
  const branches = node.anyOf;
  if (Array.isArray(branches) && branches.length === 2) {
    const nullAt = branches.findIndex(
      (b: unknown) => isSchema(b) && b.type === 'null' && Object.keys(b).length === 1,
    );
    const other: unknown = branches[1 - nullAt];
    if (nullAt >= 0 && isSchema(other) && typeof other.type === 'string' && !('const' in other)) {
      const { anyOf: _anyOf, ...rest } = node;
      node = { ...other, ...rest, type: [other.type, 'null'] };
      // An enum lists every allowed value, so null joins it.
      const values: unknown = other.enum;
      if (Array.isArray(values)) node.enum = [...values, null];
    }
  }
  return node;
}

/** Keywords that bound what a caller may send: what comes back always fits them. */
const UNBOUNDED = ['minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems'];

/** Keywords that spell out what an object or a list holds. */
const CONTENTS = [
  'properties',
  'patternProperties',
  'propertyNames',
  'required',
  'additionalProperties',
];

/** The most fields a record inside a result may have and still be spelled out (a cycle, money). */
const MAX_SMALL_FIELDS = 4;

/** Whether every field of `properties` is a scalar or a list of scalars (no record inside). */
function scalarOnly(properties: JsonSchema): boolean {
  return Object.values(properties).every((field) => {
    const text = isSchema(field) ? JSON.stringify(field) : '';
    return !/"type":(\[[^\]]*)?"object"|"properties"|"\$ref"/.test(text);
  });
}

/** Whether the object `node` describes is small enough to be spelled out inside a result. */
function spelledOut(node: JsonSchema): boolean {
  const { properties } = node;
  return (
    isSchema(properties) &&
    Object.keys(properties).length <= MAX_SMALL_FIELDS &&
    scalarOnly(properties)
  );
}

/**
 * A nested field of a result as its output schema shows it: spelled out when `spell` (a field of
 * the result itself) and `spelledOut` say so, else its type, enum, nullability and description,
 * not what it holds (an object's fields, a list's items: the result itself shows them), except a
 * list of scalars, of records spelled out, or of another tool's output, which names that tool.
 */
function outline(field: JsonSchema, spell: boolean): JsonSchema {
  if (spell && spelledOut(field)) return field;
  const out: JsonSchema = { ...field };
  for (const key of CONTENTS) delete out[key];
  const { items } = out;
  const kept =
    isSchema(items) &&
    (SHAPED_AS in items || OWNED in items || scalarOnly({ items }) || (spell && spelledOut(items)));
  if (!kept) delete out.items;
  for (const key of LIST) {
    const branches = out[key];
    if (Array.isArray(branches))
      out[key] = branches.map((b: unknown) => (isSchema(b) ? outline(b, spell) : b));
  }
  return out;
}

/**
 * An input schema without what an agent cannot use: descriptions the server instructions state for
 * every tool (`shared`: what an amount, a currency or a date is), a branch's description under its
 * field's own, an id's length bounds (1 to 90
 * characters: no real id comes near them), safe-integer bounds, and a `default` its own
 * description already names. Every required field, type, enum, pattern, format and real bound
 * stays; the kernel parses every input strictly either way.
 */
export function leanInput(schema: JsonSchema, shared: ReadonlySet<string>): JsonSchema {
  const node = mapSubschemas(schema, (child) => leanInput(child, shared));
  const { description } = node;
  if (typeof description === 'string' && shared.has(description)) delete node.description;
  // A field's own description says what its branches' would (a nullable colour's and the colour's).
  const { anyOf } = node;
  if (typeof node.description === 'string' && Array.isArray(anyOf))
    node.anyOf = anyOf.map((branch: unknown) => {
      if (!isSchema(branch)) return branch;
      const { description: _inner, ...rest } = branch;
      return rest;
    });
  if (node.type === 'string' && node.minLength === 1 && node.maxLength === ID_MAX_LENGTH) {
    delete node.minLength;
    delete node.maxLength;
  }
  if (node.minimum === -SAFE) delete node.minimum;
  if (node.maximum === SAFE) delete node.maximum;
  anyObject(node);
  if (
    'default' in node &&
    typeof node.description === 'string' &&
    /default/i.test(node.description)
  )
    delete node.default;
  return node;
}

/**
 * A record of anything (zod's `z.record(z.string(), z.unknown())`) written as any object, in place:
 * JSON names are strings, and an absent additionalProperties allows every value. The `{}` it
 * would carry is a subschema without a type, which single-type dialects (Gemini's) cannot read.
 */
function anyObject(node: JsonSchema): void {
  const values = node.additionalProperties;
  if (node.type !== 'object' || !isSchema(values) || Object.keys(values).length > 0) return;
  delete node.additionalProperties;
  if (JSON.stringify(node.propertyNames) === '{"type":"string"}') delete node.propertyNames;
}

/** The longest id `Id` in core/domain/schemas.ts accepts. */
const ID_MAX_LENGTH = 90;

/** Subschemas shorter than this stay inline: a `$ref` would not be shorter. */
const MIN_HOISTED = 40;

/**
 * Moves every subschema that occurs more than once in `schema` (same JSON, in a subschema position)
 * into `$defs`, named after the property it describes, and refers to it by `$ref`;
 * largest saving first, until nothing repeats enough to be worth a definition.
 */
export function hoistRepeats(schema: JsonSchema): JsonSchema {
  let root = schema;
  const defs: Record<string, JsonSchema> = {};
  for (;;) {
    const seen = new Map<string, { count: number; names: Set<string> }>();
    const count = (node: JsonSchema, name: string): void => {
      const json = JSON.stringify(node);
      if (json.length >= MIN_HOISTED && !('$ref' in node)) {
        const entry = seen.get(json) ?? { count: 0, names: new Set<string>() };
        entry.count += 1;
        entry.names.add(name);
        seen.set(json, entry);
      }
      mapSubschemas(node, (child, key) => {
        count(child, key ?? name);
        return child;
      });
    };
    mapSubschemas(root, (child, key) => {
      count(child, key ?? 'value');
      return child;
    });
    for (const def of Object.values(defs))
      mapSubschemas(def, (child, key) => {
        count(child, key ?? 'value');
        return child;
      });
    let best: { json: string; name: string; saving: number } | undefined;
    for (const [json, { count: n, names }] of seen) {
      // Named after the one property it describes; shared by several, it gets a neutral name.
      const name = names.size === 1 ? [...names].join('') : 'shared';
      const refLength = `{"$ref":"#/$defs/${name}"}`.length;
      const saving = n * (json.length - refLength) - (json.length + name.length + 4);
      if (n > 1 && saving > (best?.saving ?? 0)) best = { json, name, saving };
    }
    if (!best) break;
    const base = best.name.replace(/[^A-Za-z0-9_]/g, '_');
    let name = base;
    for (let n = 2; name in defs; n += 1) name = `${base}${n}`;
    const target = best.json;
    const ref = { $ref: `#/$defs/${name}` };
    const replace = (node: JsonSchema): JsonSchema =>
      JSON.stringify(node) === target ? ref : mapSubschemas(node, replace);
    root = mapSubschemas(root, replace);
    for (const [key, def] of Object.entries(defs)) defs[key] = mapSubschemas(def, replace);
    // `target` is the JSON of a subschema seen above, so it parses back to one.
    defs[name] = JSON.parse(target) as JsonSchema;
  }
  return Object.keys(defs).length > 0 ? { ...root, $defs: defs } : root;
}
