import { type z, ZodObject } from 'zod';

import { OpError } from '../errors/index.ts';
import { type Actor, type Scope, scopeAllows } from './actor.ts';
import { type AnyOp, offeredOn, type Surface } from './op.ts';

/**
 * Surface policy, decided once for every surface (MCP tools, assistant tools, chat commands and
 * buttons, the web API, the CLI): which ops a surface offers an actor, and the refusal of an op
 * excluded there. Adapters list with `opsFor` and invoke with `{ surface }`; none filters on its own.
 */

/**
 * Whether `actor` may be offered `op` on `surface`: the op is not excluded there, the actor's scope
 * covers it, owner-only ops only for the owner (or the system), and the assistant works inside a
 * household below `trusted`. The kernel enforces the same rules on invoke, so offering is never
 * wider than running.
 */
export function offers(
  op: AnyOp,
  actor: Pick<Actor, 'scope' | 'role' | 'kind'>,
  surface: Surface,
): boolean {
  if (!offeredOn(op, surface)) return false;
  if (!scopeAllows(actor.scope, op.scope)) return false;
  if (op.ownerOnly === true && actor.role !== 'owner' && actor.kind !== 'system') return false;
  if (surface === 'assistant' || actor.kind === 'assistant') {
    if ((op.household ?? 'required') !== 'required') return false;
    if (op.scope === 'trusted') return false;
  }
  return true;
}

/** The ops a surface offers an actor, in catalog order: the one list tools, routes and commands come from. */
export function opsFor(catalog: readonly AnyOp[], actor: Actor, surface: Surface): AnyOp[] {
  return catalog.filter((op) => offers(op, actor, surface));
}

/** Refuses an op excluded on the calling surface, with the same sentence everywhere. */
export function assertOffered(op: AnyOp, surface: Surface | undefined): void {
  if (surface === undefined || offeredOn(op, surface)) return;
  throw new OpError('forbidden', 'errors.not_on_surface', { op: op.name });
}

const strictInputs = new WeakMap<AnyOp, z.ZodType>();

/**
 * An op's input as every surface parses and advertises it: top-level objects strict (an unknown
 * field is an error, not silently dropped: agents learn from it). Built once per op.
 */
export function strictInputOf(op: AnyOp): z.ZodType {
  let schema = strictInputs.get(op);
  if (!schema) {
    schema = op.input instanceof ZodObject ? op.input.strict() : op.input;
    strictInputs.set(op, schema);
  }
  return schema;
}

/** Whom docs and discovery describe: the most any actor gets (a trusted owner). */
const MOST: Pick<Actor, 'scope' | 'role' | 'kind'> = {
  scope: 'trusted',
  role: 'owner',
  kind: 'member',
};

/** The ops a surface offers anyone at all (to a trusted owner): for docs, discovery and listings. */
export function surfaceOps(catalog: readonly AnyOp[], surface: Surface): AnyOp[] {
  return catalog.filter((op) => offers(op, MOST, surface));
}

/**
 * The scope an actor lacks for an op the surface would otherwise offer them, or null: a 403 that
 * names the scope to ask for (MCP's step-up) rather than "unknown tool".
 */
export function missingScope(op: AnyOp, actor: Actor, surface: Surface): Scope | null {
  if (offers(op, actor, surface)) return null;
  return offers(op, { ...actor, scope: 'trusted' }, surface) && !scopeAllows(actor.scope, op.scope)
    ? op.scope
    : null;
}
