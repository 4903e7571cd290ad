import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { HTTPException } from 'hono/http-exception';

import {
  type Actor,
  authenticateSession,
  type Core,
  type Freshness,
  type Locale,
  newFreshness,
  OpError,
  t,
} from '../../core/index.ts';
import { resolveSpeaker } from '../../core/chat/index.ts';
import { checkInitData, type TelegramUser } from './initData.ts';
import { browserLocale, setReader } from './respond.ts';

/** The cookie a browser signed in with a sign-in link carries. */
export const SESSION_COOKIE = 'exhale_session';

/** Who is calling the API, and how they proved it. */
export interface WebAuth {
  actor: Actor;
  via: 'telegram' | 'session';
  /** The web session's id (cookie); null inside Telegram. */
  sessionId: string | null;
  /** The Telegram user of the init data; null for a cookie. */
  telegramUser: TelegramUser | null;
  /**
   * This request's freshness check (readCache.ts): pass it as `fresh` to the `core.invoke` calls of
   * this request, so they share its one check; never keep it past the request.
   */
  fresh: Freshness;
}

export interface AuthOptions {
  core: Core;
  /** The bot's token: init data is checked with it; without one, only cookies sign in. */
  botToken?: string | undefined;
  /** Oldest init data accepted, in seconds (0: no limit). */
  initDataMaxAgeSeconds?: number | undefined;
  /** Origins a cookie's writes may come from besides the request's own (the public URL's). */
  origins: readonly string[];
}

type Reason = 'missing' | 'invalid' | 'expired';

/**
 * A request that acts for a browser (a cookie's write, a join that sets one) must come from
 * Exhale's own page: its `Origin` is the server's (or the public URL's), else 403 and nothing runs.
 */
export function requireOwnOrigin(c: Context, origins: readonly string[]): void {
  const origin = c.req.header('origin');
  const own = new URL(c.req.url).origin;
  if (origin === undefined || (origin !== own && !origins.includes(origin)))
    throw new OpError('forbidden', 'web.origin');
}

/** Sets the session cookie of a browser just signed in (a sign-in link redeemed, a join). */
export function setSessionCookie(
  c: Context,
  session: { token: string; expiresAt: string },
  secure: boolean,
): void {
  setCookie(c, SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
    secure,
    expires: new Date(session.expiresAt),
  });
}

/** 401 in the contract's shape, with the sentence saying how to get in. */
/**
 * 401 with the reason and its sentence, and `bot`: whether a Telegram bot serves this server (the
 * sign-in screen then tells how to get a link from it, else only from the terminal chat and CLI).
 */
function unauthenticated(
  c: Context,
  reason: Reason,
  locale: Locale,
  bot: boolean,
  key?: string,
): never {
  // Without a bot, the sentence names only the ways a link comes on this server.
  const message = t(locale, key ?? `web.unauthenticated.${bot ? '' : 'no_bot.'}${reason}`);
  throw new HTTPException(401, {
    res: c.json({ error: 'unauthenticated', message, reason, bot }, 401, {
      'cache-control': 'no-store',
    }),
  });
}

/**
 * Authenticates an API request: `Authorization: tma <initDataRaw>` inside Telegram (HMAC with the
 * bot token, age, and the Telegram user's member through `member_identities`), `?tma=` where the
 * client cannot send headers (EventSource; only when `query` is set), or the session cookie. A
 * cookie's request that may write (any method but GET and HEAD) must come from Exhale's own page:
 * its `Origin` is the server's, else 403 and nothing runs (a cross-site form cannot act for the
 * member). Init data needs no such check: a page on another site cannot set the header.
 */
export async function authenticate(
  c: Context,
  options: AuthOptions,
  { query = false }: { query?: boolean } = {},
): Promise<WebAuth> {
  const fresh = newFreshness();
  // The browser's language only for a refusal (a signed-in member is answered in theirs).
  const browser = (): Locale => browserLocale(c.req.header('accept-language'));
  const bot = options.botToken !== undefined && options.botToken !== '';
  const header = c.req.header('authorization') ?? '';
  const tma = header.startsWith('tma ')
    ? header.slice(4).trim()
    : query
      ? (c.req.query('tma') ?? null)
      : null;
  if (tma !== null) {
    if (!options.botToken) unauthenticated(c, 'invalid', browser(), bot);
    const check = checkInitData(tma, options.botToken, {
      now: options.core.clock(),
      maxAgeSeconds: options.initDataMaxAgeSeconds,
    });
    if (!check.ok) unauthenticated(c, check.reason, browser(), bot);
    // Cached as strictly as the kernel's own membership check (see resolveSpeaker): no query on
    // SQLite while nothing changed, and an unlinked account or a member who left is refused at once.
    const speaker = await resolveSpeaker(
      options.core.db,
      {
        channel: 'telegram',
        externalId: String(check.user.id),
        displayName: check.user.first_name,
        languageCode: check.user.language_code,
      },
      { cached: true, fresh },
    );
    if (speaker.newcomer)
      unauthenticated(c, 'invalid', speaker.locale, bot, 'web.unauthenticated.unknown_user');
    const actor: Actor = { ...speaker.actor, channel: 'web' };
    setReader(c, actor.locale);
    return { actor, via: 'telegram', sessionId: null, telegramUser: check.user, fresh };
  }
  const cookie = getCookie(c, SESSION_COOKIE);
  if (cookie === undefined || cookie === '') unauthenticated(c, 'missing', browser(), bot);
  // Cached as strictly as an agent token (see authenticateSession): an ended session is refused
  // from the next request on, in any process.
  const session = await authenticateSession(options.core.db, cookie, options.core.clock(), {
    fresh,
  });
  if (!session.ok) unauthenticated(c, session.reason, browser(), bot);
  setReader(c, session.actor.locale);
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') requireOwnOrigin(c, options.origins);
  return {
    actor: session.actor,
    via: 'session',
    sessionId: session.sessionId,
    telegramUser: null,
    fresh,
  };
}
