import type { RouteGroup } from '../../bot/http/app.ts';
import {
  type Core,
  type DocumentFetchOptions,
  redeemConnectCode,
  type RegistrationLimits,
} from '../../core/index.ts';
import { oauthRoutes } from './routes.ts';
import { sessionMember } from './session.ts';

export { OAUTH_PATHS } from './metadata.ts';
export type { OAuthDeps } from './deps.ts';

/**
 * The authorization server's routes for a process: connect codes from chat (`/connect`), the
 * web session of the Mini App, CIMD fetch limits.
 */
export function authorizationServer(
  core: Core,
  options: {
    publicUrl?: string | undefined;
    trustProxy?: boolean | undefined;
    documentFetch?: DocumentFetchOptions | undefined;
    registrationLimits?: RegistrationLimits | undefined;
  } = {},
): RouteGroup {
  return oauthRoutes({
    core,
    ...options,
    redeemConnectCode: (code, now) => redeemConnectCode(core.db, code, now),
    sessionMember: (request) => sessionMember(core, request),
  });
}
