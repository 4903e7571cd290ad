import { type Scope, SCOPES } from '../../kernel/actor.ts';

/**
 * OAuth scopes are Exhale's token scopes, `read` < `write` < `trusted`, with the meaning agent
 * tokens have. A scope string (space-separated) stands for its highest known scope; unknown
 * words are ignored (RFC 6749 §3.3 lets the server grant other than asked), so `openid profile
 * offline_access write` is `write`, and a string with no known word is null: the caller then
 * takes what it takes when no scope is named (connectors send OpenID words by habit).
 */
export function highestScope(scopeString: string | null | undefined): Scope | null {
  const words = (scopeString ?? '').split(/\s+/).filter(Boolean);
  let best: Scope | null = null;
  for (const word of words) {
    const i = SCOPES.findIndex((s) => s === word);
    if (i >= 0 && (best === null || i > SCOPES.indexOf(best))) best = SCOPES[i] ?? best;
  }
  return best;
}

/** The scope a client gets when it names none: change things with confirmation. */
export const DEFAULT_SCOPE: Scope = 'write';

/** A granted scope as the string a token response carries: the scope and every one below it. */
export function scopeString(scope: Scope): string {
  return SCOPES.slice(0, SCOPES.indexOf(scope) + 1).join(' ');
}

/** The scopes a person may choose on the consent page: the one asked for and each below it. */
export function scopesUpTo(scope: Scope): Scope[] {
  return SCOPES.slice(0, SCOPES.indexOf(scope) + 1);
}

/**
 * `asked`, lowered to `cap` when there is one: a client that registered a scope (RFC 7591
 * `scope`: the scopes it may ask for) is never granted more, whatever it asks later.
 */
export function cappedScope(asked: Scope, cap: Scope | null): Scope {
  return cap !== null && SCOPES.indexOf(cap) < SCOPES.indexOf(asked) ? cap : asked;
}
