/** Tokens that let agents act for a member over MCP. */
export const tokenOps = [] as const;
