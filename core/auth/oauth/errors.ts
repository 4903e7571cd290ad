/**
 * An OAuth protocol error (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8707): its `error` code goes on the
 * wire as it is, with an English `error_description` (the protocol's reader is a client program).
 * Kept apart from `OpError`: these are answered by the OAuth endpoints only, in OAuth's shape.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'temporarily_unavailable';

export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** 401 for a client that failed to authenticate, 400 otherwise. */
    readonly status: 400 | 401 = error === 'invalid_client' ? 401 : 400,
  ) {
    super(`${error}: ${description}`);
  }
}

export function isOAuthError(error: unknown): error is OAuthError {
  return error instanceof OAuthError;
}
