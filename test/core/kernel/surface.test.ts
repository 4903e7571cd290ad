import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Actor, SCOPES } from '../../../core/kernel/actor.ts';
import { isOpError } from '../../../core/errors/index.ts';
import { type AnyOp, SURFACES, type Surface } from '../../../core/kernel/op.ts';
import { offers, opsFor, strictInputOf, surfaceOps } from '../../../core/kernel/surface.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';

/** What an op's own definition says about a surface, read straight from its fields. */
function definitionOffers(op: AnyOp, actor: Actor, surface: Surface): boolean {
  if (op.exclude?.[surface] !== undefined) return false;
  if (SCOPES.indexOf(actor.scope) < SCOPES.indexOf(op.scope)) return false;
  if (op.ownerOnly === true && actor.role !== 'owner') return false;
  // The assistant works inside a household and never above `write`.
  if (surface === 'assistant' && (op.household === 'none' || op.scope === 'trusted')) return false;
  return true;
}

function actorOf(h: TestHousehold, scope: Actor['scope'], role: 'owner' | 'member'): Actor {
  return { ...h.owner, kind: scope === 'trusted' ? 'member' : 'agent', scope, role };
}

describe('surface policy', () => {
  let h: TestHousehold;
  beforeAll(async () => {
    h = await createTestHousehold();
  });
  afterAll(async () => h.close());

  it('offers on every surface, to every scope and role, exactly what each op definition says', () => {
    const mismatches: string[] = [];
    for (const surface of SURFACES)
      for (const scope of SCOPES)
        for (const role of ['owner', 'member'] as const) {
          const actor = actorOf(h, scope, role);
          const listed = new Set(opsFor(catalog, actor, surface));
          for (const op of catalog) {
            const expected = definitionOffers(op, actor, surface);
            if (offers(op, actor, surface) !== expected || listed.has(op) !== expected)
              mismatches.push(`${surface}/${scope}/${role}: ${op.name} should be ${expected}`);
          }
        }
    expect(mismatches).toEqual([]);
  });

  it('lists for docs what a trusted owner is offered', () => {
    for (const surface of SURFACES)
      expect(surfaceOps(catalog, surface)).toEqual(
        opsFor(catalog, actorOf(h, 'trusted', 'owner'), surface),
      );
  });

  it('refuses an op invoked on a surface that excludes it, before reading its input, with one sentence', async () => {
    let checked = 0;
    for (const op of catalog)
      for (const surface of SURFACES) {
        if (op.exclude?.[surface] === undefined) continue;
        checked += 1;
        const error: unknown = await h.core
          .invoke(op.name, h.owner, {}, { surface, dryRun: true })
          .then(
            () => null,
            (e: unknown) => e,
          );
        expect(isOpError(error) && error.key, `${op.name} on ${surface}`).toBe(
          'errors.not_on_surface',
        );
        if (isOpError(error)) {
          expect(error.code).toBe('forbidden');
          expect(error.render('en')).toContain(op.name);
          expect(error.render('es')).toMatch(/no está disponible/);
        }
      }
    expect(checked).toBeGreaterThan(5);
  });

  it('never refuses for its surface an op that the surface offers', async () => {
    for (const op of catalog)
      for (const surface of SURFACES) {
        if (op.exclude?.[surface] !== undefined) continue;
        const error: unknown = await h.core
          .invoke(op.name, h.owner, {}, { surface, dryRun: true })
          .then(
            () => null,
            (e: unknown) => e,
          );
        expect(isOpError(error) ? error.key : null, `${op.name} on ${surface}`).not.toBe(
          'errors.not_on_surface',
        );
      }
  });

  it('builds the strict input schema once per op', () => {
    for (const op of catalog) expect(strictInputOf(op)).toBe(strictInputOf(op));
    const create = catalog.find((op) => op.name === 'create_tag');
    if (!create) throw new Error('create_tag is in the catalog');
    expect(strictInputOf(create).safeParse({ name: 'x', extra: 1 }).success).toBe(false);
  });
});
