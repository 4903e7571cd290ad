// Agent authentication: raw tokens, their hashes, and the actor a token stands for.
export { authenticateToken } from './authenticate.ts';
export { type CredentialsPurged, purgeExpiredCredentials } from './cleanup.ts';
export {
  generateToken,
  hashToken,
  isTokenShaped,
  TOKEN_PATTERN,
  tokenFromSeed,
  tokenPrefix,
} from './tokens.ts';
// One-time codes (web sign-in, OAuth connect), web sessions, calendar feed tokens.
export {
  CODE_PURPOSES,
  type CodePurpose,
  type IssuedCode,
  issueCode,
  type RedeemedCode,
  type RedeemRefusal,
  type RedeemResult,
  redeemCode,
} from './oneTimeCodes.ts';
export { SIGN_IN_CODE_LENGTH, SIGN_IN_TTL_MS, signInPath } from './signIn.ts';
export {
  authenticateSession,
  SESSION_PREFIX,
  SESSION_TTL_MS,
  type SessionCheck,
  startWebSession,
  type StartedSession,
} from './webSessions.ts';
export { calendarFeedOwner } from './calendarFeeds.ts';
export { hashSecret, randomSecret, secretFromSeed } from './secrets.ts';
