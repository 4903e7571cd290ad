import type { Action, ActionKind } from './actions.ts';
import type { CommandSpec } from './commands.ts';
import type { Awaiting } from './flows.ts';
import type { Turn } from './turn.ts';
import type { SentRef } from './types.ts';

/** The kinds of question the engine waits for a typed answer to (`flows` rows of kind awaiting). */
export type AwaitingKind = Awaiting['t'];

/** Runs a pressed button's action; `ref` is the message the button sits on, to redraw it. */
export type ActionHandler<K extends ActionKind> = (
  turn: Turn,
  action: Extract<Action, { t: K }>,
  ref: SentRef | null,
) => Promise<void>;

/** Takes the text typed after a question the engine asked. */
export type AnswerHandler<K extends AwaitingKind> = (
  turn: Turn,
  awaiting: Extract<Awaiting, { t: K }>,
  text: string,
) => Promise<void>;

/**
 * One chat feature as the engine sees it: the commands it offers (in menu order), the button
 * actions it runs and the typed answers it takes, each by kind. The engine builds its dispatch
 * tables and the command menu (/help, Telegram's setMyCommands) from the list in
 * `features/index.ts`; a kind belongs to exactly one feature.
 */
export interface ChatFeature {
  readonly name: string;
  readonly commands?: readonly CommandSpec[];
  /**
   * The ops its buttons and answers call besides its commands' own ops: what makes each write op
   * of the catalog reachable from chat (test/core/chat/reachability.test.ts checks every one is).
   */
  readonly reaches?: readonly string[];
  readonly actions?: { readonly [K in ActionKind]?: ActionHandler<K> };
  readonly answers?: { readonly [K in AwaitingKind]?: AnswerHandler<K> };
}

/** Declares a feature, keeping its literal type so `features/index.ts` can check every kind is handled. */
export function defineFeature<const F extends ChatFeature>(feature: F): F {
  return feature;
}
