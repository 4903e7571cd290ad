import type { z } from 'zod';

import type { TextParams } from '../i18n/index.ts';
import type { Household } from '../domain/schemas.ts';
import type { TrackedTx } from '../store/tracked.ts';
import type { Actor, Scope } from './actor.ts';
import type { Freshness } from './readCache.ts';

/** How an op touches data: MCP hints, confirmation and undo all follow from it. */
export type Effect = 'read' | 'write' | 'destructive';

/** The surfaces generated from the catalog. */
export const SURFACES = ['mcp', 'assistant', 'web', 'chat', 'cli'] as const;
export type Surface = (typeof SURFACES)[number];

/** What an op's `run` receives: who acts, in which household, and a transaction that records writes. */
export interface OpContext {
  actor: Actor;
  /** The actor's household, loaded before the op runs; absent only for `household: 'none'` ops. */
  household: Household | null;
  tx: TrackedTx;
  now: Date;
  /** Today's date in the household's time zone (UTC when there is no household). */
  today: string;
  dryRun: boolean;
  /** The id the audit entry of this call will have (undo links entries with it). */
  auditId: string;
  newId(prefix: string): string;
  /** Another op of the catalog by name (undo checks the caller could still run what it reverts). */
  findOp(name: string): AnyOp | undefined;
  /**
   * This call's freshness check (readCache.ts): every cached read of the call (the kernel's
   * membership check, the read model) shares one SQLite `data_version` read, the caller's when
   * it passed one (`InvokeOptions.fresh`). Absent in contexts made outside the kernel.
   */
  fresh?: Freshness | undefined;
}

/** An op as written in a catalog file; see `defineOp`. */
export interface OpSpec<I extends z.ZodType, O extends z.ZodType, N extends string = string> {
  /** snake_case, `^[a-z][a-z0-9_]{0,63}$`: the MCP tool, assistant tool, API route and audit row name. */
  name: N;
  /** A short human title ("Create a subscription"). */
  title: string;
  /** What it does, when to use it and what it returns, for people and models. */
  description: string;
  input: I;
  output: O;
  effect: Effect;
  /** The least token scope that may call it (`defineOp` defaults it from `effect`). */
  scope: Scope;
  /** Only the household's owner may call it. */
  ownerOnly?: boolean;
  /**
   * Moves or commits money (a charge marked paid, an amount changed): agents confirm it. A
   * function decides per call, from the parsed input (a renamed subscription moves no money).
   */
  financial?: boolean | ((input: z.output<I>) => boolean);
  idempotent?: boolean;
  /** `'none'`: runs without a household (creating or joining one). Default: the actor's household. */
  household?: 'required' | 'none';
  /** Surfaces that must not offer this op, each with the reason. Every other surface offers it. */
  exclude?: Partial<Record<Surface, string>>;
  /**
   * What happened, in one line for the activity list: the parameters of the text
   * `activity.<name>` (or `activity.<name>.<variant>`), stored with the audit entry and rendered in
   * each reader's language. Without it the line is `activity.<name>` with no parameters.
   */
  summarize?: (input: z.output<I>, output: z.output<O>) => TextParams;
  /** Picks the line's variant (`activity.<name>.<variant>`): a plural, a format, what else happened. */
  summaryVariant?: (input: z.output<I>, output: z.output<O>) => string | null;
  /**
   * Audit entries this call acts on, kept with its own entry (undo records what it undid); their
   * lines become the `{items}` of this entry's line, in this order.
   */
  links?: (output: z.output<O>) => string[];
  /**
   * A text key saying why this op's entries cannot be undone, for the few changes whose undo
   * would be a security hole (a signed-out browser signed in again): `undo` refuses them with that
   * sentence and the activity list offers no Undo. Every other op's changes can be undone.
   */
  notUndoable?: string;
  run(ctx: OpContext, input: z.output<I>): Promise<z.input<O>>;
}

export type AnyOp = OpSpec<z.ZodType, z.ZodType>;

/**
 * An op as written in its file: `OpSpec` with `scope` optional when it is the one its effect
 * implies (`read` for reads, `write` for writes and destructive ones).
 */
export type OpDefinition<I extends z.ZodType, O extends z.ZodType, N extends string> = Omit<
  OpSpec<I, O, N>,
  'scope'
> & { scope?: Scope };

/** The scope an effect implies when an op names none. */
export function defaultScope(effect: Effect): Scope {
  return effect === 'read' ? 'read' : 'write';
}

const NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/** Declares an op. Types flow from the zod schemas; the name is checked at definition time. */
export function defineOp<I extends z.ZodType, O extends z.ZodType, N extends string>(
  definition: OpDefinition<I, O, N>,
): OpSpec<I, O, N> {
  if (!NAME_PATTERN.test(definition.name))
    throw new Error(`op name ${definition.name} must match ${NAME_PATTERN}`);
  if (definition.scope === defaultScope(definition.effect))
    throw new Error(
      `op ${definition.name}: scope ${definition.scope} is its effect's default; leave it out`,
    );
  return { ...definition, scope: definition.scope ?? defaultScope(definition.effect) };
}

export function isWrite(op: AnyOp): boolean {
  return op.effect !== 'read';
}

export function offeredOn(op: AnyOp, surface: Surface): boolean {
  return op.exclude?.[surface] === undefined;
}

/** Whether this call of the op moves money; input that does not parse counts as moving it. */
export function movesMoney(op: AnyOp, input: unknown): boolean {
  const financial = op.financial;
  if (typeof financial !== 'function') return financial === true;
  const parsed = op.input.safeParse(input);
  return !parsed.success || financial(parsed.data);
}
