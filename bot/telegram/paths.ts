/**
 * Where Telegram posts updates. Its own module so the HTTP edge can name the path at start
 * without loading grammY, which is loaded only when a Telegram token is configured.
 */
export const WEBHOOK_PATH = '/telegram/webhook';
