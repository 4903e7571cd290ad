import { createHmac, timingSafeEqual } from 'node:crypto';

import type { Database } from '../store/connection.ts';
import { serverKey } from '../store/repos/serverKeys.ts';
import { type Action, ActionSchema, runsOnce } from './actions.ts';
import type { Owner } from './flows.ts';

/**
 * Buttons that carry their action in the payload, signed, so sending them writes nothing: the
 * payload is `~` + signature (12) + owner tag (4) + hour issued (4) + the action as a JSON array
 * (`["totals","category"]`: its kind, then its fields in the schema's order). Every channel gets
 * the same payloads from the engine (Telegram's `callback_data`, Slack's action values, the
 * terminal's choices), so one limit holds everywhere: Telegram's 64 bytes.
 *
 * The signature is a truncated HMAC-SHA256 (72 bits) with the database's `buttons` key
 * (`server_keys`, shared by every process), over the household, the owner tag, the hour and the
 * action: a forged or altered payload, or one pressed from another household, does not verify and
 * gets the stale-button sentence. The owner tag (a 24-bit hash of the member, or of the person
 * before they have one) is inside the signature, so a housemate's press of someone else's button
 * is told "not yours", as with stored buttons. Actions that run once per message, and messages
 * whose actions do not fit, keep their `flows` row (core/chat/flows.ts).
 */

/** Telegram's `callback_data` limit, in bytes; the other channels allow more. */
export const PAYLOAD_LIMIT = 64;
const PREFIX = '~';
const SIG = 12;
const TAG = 4;
const HOUR = 4;
const HEADER = PREFIX.length + SIG + TAG + HOUR;

/** The field names of each action kind, in the schema's order (the JSON array's order). */
const FIELDS: ReadonlyMap<string, readonly string[]> = new Map(
  ActionSchema.options.map(
    (option) => [option.shape.t.value, Object.keys(option.shape).filter((k) => k !== 't')] as const,
  ),
);

function mac(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text).digest('base64url');
}

/** Whose buttons these are: the member (within their household), or the person before joining one. */
function scopeOf(owner: Owner): { household: string; tag: string } {
  return owner.memberId !== null
    ? { household: owner.householdId ?? '', tag: `m:${owner.memberId}` }
    : { household: '', tag: `p:${owner.who ?? ''}` };
}

/** Signs what follows the signature (owner tag, hour, action) within one household's buttons. */
function signature(key: Buffer, household: string, rest: string): string {
  return mac(key, `${household}\u0000${rest}`).slice(0, SIG);
}

function ownerTag(key: Buffer, tag: string): string {
  return mac(key, `owner\u0000${tag}`).slice(0, TAG);
}

/**
 * The action as `[kind, ...fields]`. An absent optional field is left off the end (absent and
 * null can mean different things); an absent field before a present one cannot be written (null).
 */
function encodeAction(action: Action): string | null {
  const record: Record<string, unknown> = action;
  const values = (FIELDS.get(action.t) ?? []).map((name) => record[name]);
  while (values.length > 0 && values.at(-1) === undefined) values.pop();
  if (values.includes(undefined)) return null;
  return JSON.stringify([action.t, ...values]);
}

function decodeAction(body: string): Action | null {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  if (!Array.isArray(json) || typeof json[0] !== 'string') return null;
  const fields = FIELDS.get(json[0]);
  if (!fields || json.length > fields.length + 1) return null;
  const object: Record<string, unknown> = { t: json[0] };
  json.slice(1).forEach((value: unknown, i) => {
    const field = fields[i];
    if (field !== undefined) object[field] = value;
  });
  const parsed = ActionSchema.safeParse(object);
  return parsed.success ? parsed.data : null;
}

/** The signing key of this database's processes. */
export function buttonKey(db: Database): Promise<Buffer> {
  return serverKey(db.knex, 'buttons');
}

/**
 * The payloads of one message's actions, signed for its owner; null when any of them must run
 * once per message, does not fit in {@link PAYLOAD_LIMIT} bytes, or two would be the same (then
 * the message keeps a `flows` row).
 */
export function signActions(
  key: Buffer,
  owner: Owner,
  actions: readonly Action[],
  now: Date,
): string[] | null {
  if (actions.some(runsOnce)) return null;
  const { household, tag } = scopeOf(owner);
  const hour = Math.floor(now.getTime() / 3_600_000)
    .toString(36)
    .padStart(HOUR, '0');
  const head = ownerTag(key, tag) + hour;
  const payloads: string[] = [];
  for (const action of actions) {
    const body = encodeAction(action);
    if (body === null) return null;
    const rest = head + body;
    const payload = PREFIX + signature(key, household, rest) + rest;
    if (Buffer.byteLength(payload) > PAYLOAD_LIMIT || payloads.includes(payload)) return null;
    payloads.push(payload);
  }
  return payloads;
}

/** Whether a payload is a signed button (else it names a `flows` row). */
export function isSigned(payload: string): boolean {
  return payload.startsWith(PREFIX);
}

export type SignedPress =
  { ok: true; action: Action } | { ok: false; reason: 'invalid' | 'expired' | 'not_yours' };

/**
 * Checks a signed payload pressed by `presser` (their household, member and person): its
 * action, or why not. A signature that does not verify in the presser's household (or, for
 * buttons written before they had one, as a newcomer's) is `expired`, as a button of another
 * household or forged; a verified one of another owner is `not_yours`; older than `ttlMs`, `expired`.
 */
export function verifySigned(
  key: Buffer,
  payload: string,
  presser: Owner,
  now: Date,
  ttlMs: number,
): SignedPress {
  if (payload.length <= HEADER || !isSigned(payload)) return { ok: false, reason: 'invalid' };
  const sig = Buffer.from(payload.slice(PREFIX.length, PREFIX.length + SIG));
  const rest = payload.slice(PREFIX.length + SIG);
  const tag = rest.slice(0, TAG);
  const scopes = [scopeOf(presser)];
  if (presser.memberId !== null) scopes.push(scopeOf({ ...presser, memberId: null }));
  for (const scope of scopes) {
    const expected = Buffer.from(signature(key, scope.household, rest));
    if (expected.length !== sig.length || !timingSafeEqual(expected, sig)) continue;
    if (tag !== ownerTag(key, scope.tag)) return { ok: false, reason: 'not_yours' };
    const hour = parseInt(rest.slice(TAG, TAG + HOUR), 36);
    if (!Number.isFinite(hour) || now.getTime() - hour * 3_600_000 > ttlMs)
      return { ok: false, reason: 'expired' };
    const action = decodeAction(rest.slice(TAG + HOUR));
    return action ? { ok: true, action } : { ok: false, reason: 'invalid' };
  }
  return { ok: false, reason: 'expired' };
}
