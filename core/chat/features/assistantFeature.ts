import { OpError } from '../../errors/index.ts';
import { defineFeature } from '../feature.ts';
import type { Turn } from '../turn.ts';
import type { ChatAssistant } from '../types.ts';
import { pressConfirm, pressDiscard, pressUndoProposal } from './assistant.ts';

/** The engine's assistant; a press on a proposal card while none is configured is refused. */
function assistantOf(turn: Turn): ChatAssistant {
  const assistant = turn.engine.assistant;
  if (!assistant) throw new OpError('unavailable', 'assistant.off');
  return assistant;
}

/**
 * The buttons of the assistant's proposal cards (Confirm, Discard, Undo). Kept apart from
 * `assistant.ts`, which answers free text and files (the engine calls it directly): this file only
 * registers the actions.
 */
export const assistantFeature = defineFeature({
  name: 'assistant',
  actions: {
    ai_confirm: (turn, action, ref) => pressConfirm(turn, assistantOf(turn), action.p, ref),
    ai_discard: (turn, action, ref) => pressDiscard(turn, assistantOf(turn), action.p, ref),
    ai_undo: (turn, action, ref) => pressUndoProposal(turn, assistantOf(turn), action.p, ref),
  },
});
