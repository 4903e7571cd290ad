import { createHmac, timingSafeEqual } from 'node:crypto';

import { z } from 'zod';

/**
 * Telegram Mini App init data, checked as Telegram's "Validating data received via the Mini App"
 * says: `secret = HMAC_SHA256(key = "WebAppData", bot token)`, and the `hash` field must be
 * `hex(HMAC_SHA256(key = secret, the other fields as sorted "key=value" lines joined by "\n"))`.
 * Then its age: `auth_date` older than `maxAgeSeconds` (24 h by default) is refused, so a launch's
 * data copied out of a log stops working. Only node:crypto; no SDK on the server.
 */

const TelegramUser = z.object({
  id: z.number().int(),
  first_name: z.string().default(''),
  last_name: z.string().optional(),
  username: z.string().optional(),
  language_code: z.string().optional(),
});
export type TelegramUser = z.infer<typeof TelegramUser>;

export type InitDataCheck =
  | { ok: true; user: TelegramUser; authDate: Date; startParam: string | null }
  | { ok: false; reason: 'invalid' | 'expired' };

/** 24 hours, as the contract says (`EXHALE_MINIAPP_INIT_DATA_MAX_AGE` changes it). */
export const DEFAULT_INIT_DATA_MAX_AGE_SECONDS = 86_400;

/** How far in the future an `auth_date` may be (clocks differ a little), in seconds. */
const FUTURE_SKEW_SECONDS = 300;

/** The key Telegram derives from the bot token for Mini App data. */
export function initDataSecret(botToken: string): Buffer {
  return createHmac('sha256', 'WebAppData').update(botToken).digest();
}

/**
 * Init data whose signature was checked, by bot token and raw string: an app sends the same
 * launch's data with every call, and the HMAC of a string never changes, so it is computed once.
 * Only data signed with the token gets in (a forged string is never stored); the age is checked on
 * every call all the same. Bounded: the oldest signature checked is forgotten first.
 */
interface Signed {
  user: TelegramUser;
  authDate: number;
  startParam: string | null;
}
const SIGNED_KEPT = 1_000;
const signed = new Map<string, Map<string, Signed>>();
const secrets = new Map<string, Buffer>();

function secretOf(botToken: string): Buffer {
  let secret = secrets.get(botToken);
  if (secret === undefined) {
    secret = initDataSecret(botToken);
    if (secrets.size >= 8) secrets.clear();
    secrets.set(botToken, secret);
  }
  return secret;
}

/** The string Telegram signs: every field but `hash`, sorted by key, as `key=value` lines. */
export function dataCheckString(params: URLSearchParams): string {
  return [...params.entries()]
    .filter(([key]) => key !== 'hash')
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join('\n');
}

/** Checks raw init data (the launch's `initDataRaw`, a query string) against the bot token. */
export function checkInitData(
  raw: string,
  botToken: string,
  options: { now: Date; maxAgeSeconds?: number },
): InitDataCheck {
  if (raw.length === 0 || raw.length > 8192) return { ok: false, reason: 'invalid' };
  let byToken = signed.get(botToken);
  let data = byToken?.get(raw);
  if (data === undefined) {
    const checked = checkSignature(raw, botToken);
    if (checked === null) return { ok: false, reason: 'invalid' };
    data = checked;
    if (!byToken) {
      if (signed.size >= 8) signed.clear();
      byToken = new Map();
      signed.set(botToken, byToken);
    }
    if (byToken.size >= SIGNED_KEPT) byToken.delete(byToken.keys().next().value ?? '');
    byToken.set(raw, data);
  }
  const nowSeconds = Math.floor(options.now.getTime() / 1000);
  if (data.authDate > nowSeconds + FUTURE_SKEW_SECONDS) return { ok: false, reason: 'invalid' };
  const maxAge = options.maxAgeSeconds ?? DEFAULT_INIT_DATA_MAX_AGE_SECONDS;
  if (maxAge > 0 && nowSeconds - data.authDate > maxAge) return { ok: false, reason: 'expired' };
  return {
    ok: true,
    user: data.user,
    authDate: new Date(data.authDate * 1000),
    startParam: data.startParam,
  };
}

/** The signed fields of raw init data when its hash is the bot token's HMAC of them, else null. */
function checkSignature(raw: string, botToken: string): Signed | null {
  const params = new URLSearchParams(raw);
  const hash = params.get('hash') ?? '';
  if (!/^[0-9a-f]{64}$/.test(hash)) return null;
  const expected = createHmac('sha256', secretOf(botToken))
    .update(dataCheckString(params))
    .digest();
  if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) return null;
  const authDate = Number(params.get('auth_date'));
  if (!Number.isInteger(authDate) || authDate <= 0) return null;
  try {
    const parsed = TelegramUser.safeParse(JSON.parse(params.get('user') ?? 'null'));
    if (!parsed.success) return null;
    return Object.freeze({
      user: Object.freeze(parsed.data),
      authDate,
      startParam: params.get('start_param'),
    });
  } catch {
    return null;
  }
}
