import { type Locale, type Scope, t } from '../../core/index.ts';
import { esc, page } from './html.ts';

/** What the consent page shows: who asks, where the answer goes, what it asks for. */
export interface ConsentView {
  clientName: string;
  /** The name comes from a document at the client's own URL (CIMD), not from what it registered. */
  verified: boolean;
  clientId: string;
  /** The client's logo as a `data:` URI fetched and checked by the server, or null (a monogram). */
  logo: string | null;
  /**
   * Where the browser returns: a look-alike client cannot hide it. A host, or for an app on the
   * person's device (`app`) its scheme (`cursor://anysphere.cursor-mcp`, `com.example.app:`).
   */
  returnTo: { target: string; app: boolean };
  asked: Scope;
  /**
   * The choice the page starts on: what was asked, except `trusted` (changes without asking),
   * which the person must pick themselves. ChatGPT asks for every scope the metadata lists.
   */
  preselected: Scope;
  choices: Scope[];
  /** The authorization request, carried through the form unchanged (re-checked on POST). */
  params: Record<string, string | undefined>;
}

function hidden(params: Record<string, string | undefined>): string {
  return Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
}

/**
 * The consent page: server-rendered, no script. The client's name (marked unverified unless it
 * comes from a document the client controls) with its logo inlined as a `data:` URI (the page loads
 * nothing from elsewhere; a monogram when there is none), the host it returns to, the scope asked and each lower one to choose,
 * and the connect code field unless the person is signed in. The form says which of the two it
 * showed (`via`: `code` or `session`), and the answer is taken only that way (`answerConsent`).
 */
export function consentPage(
  locale: Locale,
  view: ConsentView,
  options: {
    needsCode: boolean;
    problem?: 'wrong_code' | 'too_many' | 'signed_out' | undefined;
  },
): string {
  const tr = (key: string, params?: Record<string, string>) => esc(t(locale, key, params));
  // The name in its own direction (<bdi>): a right-to-left name cannot reorder Exhale's words or
  // the badge beside it (format characters are already gone, `displayName`).
  const title = tr('oauth.consent.title', { client: '{client}' }).replace(
    '{client}',
    () => `<bdi>${esc(view.clientName)}</bdi>`,
  );
  const initial = esc((view.clientName.trim()[0] ?? '?').toUpperCase());
  // A data: URI of a checked image only (png, jpeg, webp, gif, svg): an <img> runs no script.
  const mark = view.logo?.startsWith('data:image/')
    ? `<img class="mono" src="${esc(view.logo)}" alt="" width="40" height="40">`
    : `<span class="mono" aria-hidden="true">${initial}</span>`;
  const choices = [...view.choices]
    .reverse()
    .map(
      (scope) =>
        `<label><input type="radio" name="granted_scope" value="${scope}"${scope === view.preselected ? ' checked' : ''}> ${tr(`oauth.scope.${scope}`)}</label>`,
    )
    .join('');
  const problem = options.problem
    ? `<p class="err" role="alert">${tr(`oauth.consent.${options.problem}`)}</p>`
    : '';
  const code = options.needsCode
    ? `<p><label for="connect_code">${tr('oauth.consent.code_label')}</label><input type="text" id="connect_code" name="connect_code" autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" maxlength="12" required></p><p class="hint">${tr('oauth.consent.code_hint')}</p>`
    : '';
  const body = `<h1>${mark}${title}${view.verified ? '' : `<span class="tag">${tr('oauth.consent.unverified')}</span>`}</h1>
<p>${tr('oauth.consent.returns_to')} <span class="host">${esc(view.returnTo.target)}</span></p>
${view.returnTo.app ? `<p class="hint">${tr('oauth.consent.returns_to_app')}</p>` : ''}
${view.verified ? '' : `<p class="hint">${tr('oauth.consent.unverified_hint')}</p>`}
<form method="post" action="authorize">${hidden(view.params)}<input type="hidden" name="via" value="${options.needsCode ? 'code' : 'session'}">
<fieldset><legend>${tr('oauth.consent.choose')}</legend>${choices}</fieldset>
${problem}${code}
<p><button type="submit" name="decision" value="allow">${tr('oauth.consent.allow')}</button><button type="submit" name="decision" value="deny" formnovalidate>${tr('oauth.consent.deny')}</button></p>
</form>`;
  return page(locale, t(locale, 'oauth.consent.title', { client: view.clientName }), body);
}

/** The page for a request that cannot go back to the client (unknown client or redirect URI). */
export function errorPage(locale: Locale, reason: 'client' | 'redirect', detail: string): string {
  const body = `<h1>${esc(t(locale, 'oauth.error.title'))}</h1><p>${esc(t(locale, `oauth.error.${reason}`))}</p><p class="hint">${esc(detail)}</p><p>${esc(t(locale, 'oauth.error.footer'))}</p>`;
  return page(locale, t(locale, 'oauth.error.title'), body);
}
