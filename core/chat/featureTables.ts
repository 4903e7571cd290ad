import type { Action } from './actions.ts';
import type { CommandSpec } from './commands.ts';
import type { ChatFeature } from './feature.ts';
import type { Awaiting } from './flows.ts';
import type { Turn } from './turn.ts';
import type { SentRef } from './types.ts';

type AnyActionHandler = (turn: Turn, action: Action, ref: SentRef | null) => Promise<void>;
type AnyAnswerHandler = (turn: Turn, awaiting: Awaiting, text: string) => Promise<void>;

/** The engine's dispatch tables, built once from the features: commands in menu order, handlers by kind. */
export interface FeatureTables {
  readonly commands: readonly CommandSpec[];
  readonly actions: ReadonlyMap<string, AnyActionHandler>;
  readonly answers: ReadonlyMap<string, AnyAnswerHandler>;
}

/**
 * Builds the tables from a list of features. A command name, action kind or answer kind claimed
 * by two features is a programming error, refused here rather than silently shadowed.
 */
export function buildFeatureTables(features: readonly ChatFeature[]): FeatureTables {
  const commands: CommandSpec[] = [];
  const actions = new Map<string, AnyActionHandler>();
  const answers = new Map<string, AnyAnswerHandler>();
  for (const feature of features) {
    for (const spec of feature.commands ?? []) {
      if (commands.some((c) => c.command === spec.command))
        throw new Error(`chat: /${spec.command} is declared twice (feature ${feature.name})`);
      commands.push(spec);
    }
    for (const [kind, handler] of Object.entries(feature.actions ?? {})) {
      if (actions.has(kind))
        throw new Error(`chat: action ${kind} is handled twice (${feature.name})`);
      // Stored under its own kind, so it is only ever called with an action of that kind: the
      // map's wider type is what TypeScript cannot correlate (a union of handlers by kind).
      if (handler) actions.set(kind, handler as AnyActionHandler);
    }
    for (const [kind, handler] of Object.entries(feature.answers ?? {})) {
      if (answers.has(kind))
        throw new Error(`chat: answer ${kind} is handled twice (${feature.name})`);
      // As above: keyed by the awaited kind it takes.
      if (handler) answers.set(kind, handler as AnyAnswerHandler);
    }
  }
  return { commands, actions, answers };
}
