import { listActivity } from './listActivity.ts';
import { undo } from './undo.ts';

/** The activity log: who changed what, and undo (and redo, by undoing an undo). */
export const activityOps = [listActivity, undo] as const;
