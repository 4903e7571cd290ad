import { z } from 'zod';

import { type Actor, type Scope, scopeAllows } from '../kernel/actor.ts';
import type { AnyOp } from '../kernel/op.ts';
import { strictInputOf } from '../kernel/surface.ts';
import type { ToolSpec } from './model.ts';
import { SHOW_SCREEN } from './screen.ts';

/** The scope the assistant never goes above: it prepares writes, a person confirms them. */
const ASSISTANT_SCOPE: Scope = 'write';

/** Keys that would ask the kernel to skip or pre-approve a preview; never offered, stripped if sent. */
const GATE_KEYS = new Set(['dryRun', 'dry_run', 'confirm', 'confirmed', 'confirmation_id']);

/** The assistant acting as the member who asked: same member, household and channel, at most `write`. */
export function assistantActor(member: Actor): Actor {
  return {
    kind: 'assistant',
    householdId: member.householdId,
    memberId: member.memberId,
    role: member.role,
    scope: scopeAllows(ASSISTANT_SCOPE, member.scope) ? member.scope : ASSISTANT_SCOPE,
    channel: member.channel,
    locale: member.locale,
  };
}

const specCache = new WeakMap<AnyOp, ToolSpec>();

/** An op as a tool: its name, description and input JSON Schema (strict, gate keys removed), built once. */
export function toolSpecOf(op: AnyOp): ToolSpec {
  let spec = specCache.get(op);
  if (!spec) {
    const { $schema: _dialect, ...schema } = z.toJSONSchema(strictInputOf(op), {
      io: 'input',
      unrepresentable: 'any',
    }) as Record<string, unknown>;
    spec = { name: op.name, description: op.description, parameters: withoutGateKeys(schema) };
    specCache.set(op, spec);
  }
  return spec;
}

function withoutGateKeys(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null) return schema;
  const kept = Object.fromEntries(Object.entries(properties).filter(([k]) => !GATE_KEYS.has(k)));
  const required = Array.isArray(schema.required)
    ? schema.required.filter((k) => typeof k === 'string' && !GATE_KEYS.has(k))
    : undefined;
  return { ...schema, properties: kept, ...(required ? { required } : {}) };
}

/** Every tool of a turn: the member's ops, then `show_screen`. */
export function toolSpecs(ops: readonly AnyOp[]): ToolSpec[] {
  return [...ops.map(toolSpecOf), SHOW_SCREEN];
}

/**
 * The arguments the model sent without any dry-run or confirmation switch, at every depth (inside
 * `change`, a list's items…): no op has a field of those names, and the model is never to set
 * one. Deeper than the kernel's input bound (64, core/kernel/jsonDepth.ts) is left as it is: the
 * kernel refuses that input before reading it.
 */
export function stripGateKeys(args: Record<string, unknown>): Record<string, unknown> {
  const out = stripDeep(args, 0);
  return isRecord(out) ? out : args;
}

const STRIP_DEPTH = 64;

function stripDeep(value: unknown, depth: number): unknown {
  if (depth > STRIP_DEPTH) return value;
  if (Array.isArray(value)) {
    const items: unknown[] = value;
    return items.map((item) => stripDeep(item, depth + 1));
  }
  if (!isRecord(value)) return value;
  // fromEntries defines own properties: a "__proto__" key stays data, never a prototype.
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !GATE_KEYS.has(key))
      .map(([key, item]) => [key, stripDeep(item, depth + 1)]),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
