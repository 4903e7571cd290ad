// Exhale's OAuth 2.1 authorization server, storage and token logic (the HTTP endpoints are
// mcp/oauth/). Codes and tokens are opaque and stored as SHA-256 hashes; see the migration
// 202612010006_oauth for the tables.
export type { ConnectLimits, RegistrationLimits } from './attempts.ts';
export {
  CONNECT_CODE_LIMITS,
  REGISTRATION_LIMITS,
  refundConnectAttempt,
  reserveConnectAttempt,
  reserveRegistration,
} from './attempts.ts';
export type { AuthMethod, ClientMetadata, OAuthClient } from './clients.ts';
export {
  AUTH_METHODS,
  authenticateClient,
  markConnected,
  registerClient,
  storedClient,
} from './clients.ts';
export type { DocumentFetchOptions } from './clientDocument.ts';
export { documentClient, isBlockedAddress, isDocumentClientId } from './clientDocument.ts';
export { clientLogo, LOGO_MAX_BYTES } from './logo.ts';
export type { OAuthErrorCode } from './errors.ts';
export { isOAuthError, OAuthError } from './errors.ts';
export { matchRedirectUri, redirectTarget } from './redirects.ts';
export { cappedScope, DEFAULT_SCOPE, highestScope, scopeString, scopesUpTo } from './scopes.ts';
export type { CodeRequest, TokenSet } from './tokens.ts';
export {
  ACCESS_TTL_MS,
  authenticateAccessToken,
  CODE_TTL_MS,
  exchangeCode,
  issueAuthorizationCode,
  purgeOAuth,
  REFRESH_TTL_MS,
  refreshTokens,
  revokeToken,
} from './tokens.ts';
export {
  CONNECT_CODE_LENGTH,
  CONNECT_CODE_TTL_MS,
  displayConnectCode,
  redeemConnectCode,
} from './connectCodes.ts';
