import { type Actor, authenticateSession, type Core } from '../../core/index.ts';

/** The web session cookie the Mini App's sign-in sets. */
export const SESSION_COOKIE = 'exhale_session';

/**
 * The member signed in on this browser (the `exhale_session` cookie), or null. The cookie is
 * SameSite=Strict, so a cross-site form post does not carry it: the consent page's Allow, without
 * a code, is only for a person on Exhale's own page. Nor does a cross-site *navigation* to the
 * page: a person arriving from the app's site sees the code field although signed in, and the
 * form's `via` then makes the code, not the session, decide (`answerConsent`).
 */
export async function sessionMember(core: Core, request: Request): Promise<Actor | null> {
  const header = request.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== SESSION_COOKIE) continue;
    const check = await authenticateSession(core.db, value.join('='), core.clock());
    return check.ok ? check.actor : null;
  }
  return null;
}
