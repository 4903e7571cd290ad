import { createToken } from './createToken.ts';
import { listTokens } from './listTokens.ts';
import { revokeToken } from './revokeToken.ts';

/** Tokens that let agents act for a member over MCP. */
export const tokenOps = [createToken, listTokens, revokeToken] as const;
