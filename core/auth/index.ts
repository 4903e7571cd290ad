// Agent authentication: raw tokens, their hashes, and the actor a token stands for.
export { authenticateToken } from './authenticate.ts';
export {
  generateToken,
  hashToken,
  isTokenShaped,
  TOKEN_PATTERN,
  tokenFromSeed,
  tokenPrefix,
} from './tokens.ts';
