import { type Scope, SCOPES } from '../../kernel/actor.ts';

/**
 * OAuth scopes are Exhale's token scopes, `read` < `write` < `trusted`, with the meaning agent
 * tokens have. A scope string (space-separated) stands for its highest known scope; unknown
 * words are ignored (RFC 6749 lets the server grant less than asked).
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
