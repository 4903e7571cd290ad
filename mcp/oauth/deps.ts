import type { Actor, Core, DocumentFetchOptions, RegistrationLimits } from '../../core/index.ts';

/** What the authorization server's routes need from the process that mounts them. */
export interface OAuthDeps {
  core: Core;
  /** EXHALE_PUBLIC_URL: the issuer and every advertised URL. */
  publicUrl?: string | undefined;
  /**
   * Behind a reverse proxy or tunnel every request comes through (off by default): the address of
   * the wrong-code limit is the one it appended to X-Forwarded-For, and without `publicUrl` the
   * server is named from its X-Forwarded-Proto/Host (their last values, `forwardedValue`).
   */
  trustProxy?: boolean | undefined;
  /** Dynamic registrations an address may make (tests lower it); REGISTRATION_LIMITS by default. */
  registrationLimits?: RegistrationLimits | undefined;
  /** Limits and test-only trusted hosts for fetching Client ID Metadata Documents. */
  documentFetch?: DocumentFetchOptions | undefined;
  /**
   * The member a connect code stands for, redeeming it (once); null for a wrong, used or
   * expired code. The actor acts in person on the `web` channel.
   */
  redeemConnectCode(code: string, now: Date): Promise<Actor | null>;
  /** The member signed in on the web (the Mini App's session cookie), when there is one. */
  sessionMember?: ((request: Request) => Promise<Actor | null>) | undefined;
}
