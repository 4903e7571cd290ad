/**
 * The web sign-in link's code: 24 base-32 characters (120 bits), valid once for 10 minutes. The
 * op that issues it and the route that redeems it read these, so they cannot disagree.
 */
export const SIGN_IN_CODE_LENGTH = 24;
export const SIGN_IN_TTL_MS = 10 * 60_000;

/** Where the app takes a sign-in code: its sign-in screen, which posts it to `/api/session`. */
export function signInPath(code: string): string {
  return `/app/signin?code=${code}`;
}
