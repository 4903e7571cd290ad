import type { Context, NextFunction } from 'grammy';
import { localeFrom, t } from '../../../core/index.ts';

/**
 * The outermost middleware: a failing update is logged and answered with a short apology in the
 * person's language; it never reaches the runner, so the process keeps going.
 */
export function errorBoundary(log: (message: string, error?: unknown) => void) {
  return async (ctx: Context, next: NextFunction): Promise<void> => {
    try {
      await next();
    } catch (error) {
      log(`telegram: update ${ctx.update.update_id} failed`, error);
      const text = t(localeFrom(ctx.from?.language_code), 'chat.error.internal');
      if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text }).catch(() => undefined);
      if (ctx.chat) await ctx.api.sendMessage(ctx.chat.id, text).catch(() => undefined);
    }
  };
}
