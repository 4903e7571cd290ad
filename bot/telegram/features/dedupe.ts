import type { Context, NextFunction } from 'grammy';

import { firstTime } from '../../../core/chat/index.ts';
import type { Database } from '../../../core/index.ts';

/**
 * For webhooks: Telegram re-delivers an update when a call was slow or failed. The first process
 * to record an update's id handles it; a re-delivery (to this or another process) is skipped.
 */
export function dedupeUpdates(db: Database, clock: () => Date) {
  return async (ctx: Context, next: NextFunction): Promise<void> => {
    if (!(await firstTime(db, `telegram:${ctx.me.id}:${ctx.update.update_id}`, clock()))) return;
    await next();
  };
}
