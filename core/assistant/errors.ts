/**
 * What can go wrong talking to a model, in one error type both clients throw. `kind` decides what
 * the loop does (retry once, tell the member, stop); `detail` is the provider's own words, for logs
 * only (it may echo the request, so it is never shown to a member or stored).
 */
export type LlmErrorKind =
  | 'rate_limited'
  | 'overloaded'
  | 'server'
  | 'auth'
  | 'bad_request'
  | 'too_large'
  | 'not_found'
  | 'timeout'
  | 'network'
  | 'incomplete'
  | 'protocol';

export class LlmError extends Error {
  override readonly name = 'LlmError';

  constructor(
    readonly kind: LlmErrorKind,
    readonly detail: string,
    readonly options: {
      status?: number | undefined;
      /** The provider's error type or code (`overloaded_error`, `unsupported_parameter`…). */
      code?: string | undefined;
      /** Milliseconds the server asked to wait before a retry. */
      retryAfterMs?: number | undefined;
      /** The server said not to retry (`x-should-retry: false`, a spend cap). */
      noRetry?: boolean | undefined;
      /** Text had already reached the member when the error came. */
      afterOutput?: boolean | undefined;
    } = {},
  ) {
    super(`${kind}: ${detail.slice(0, 300)}`);
  }

  get retryable(): boolean {
    if (this.options.noRetry === true || this.options.afterOutput === true) return false;
    return (
      this.kind === 'rate_limited' ||
      this.kind === 'overloaded' ||
      this.kind === 'server' ||
      this.kind === 'network'
    );
  }
}

export function isLlmError(error: unknown): error is LlmError {
  return error instanceof LlmError;
}

/** The error kind of an HTTP status. */
export function kindOfStatus(status: number): LlmErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 413) return 'too_large';
  if (status === 429) return 'rate_limited';
  if (status === 529 || status === 503) return 'overloaded';
  if (status >= 500) return 'server';
  return 'bad_request';
}

/** The error kind of an error type sent inside a stream or a body (`overloaded_error`, `rate_limit_error`…). */
export function kindOfType(type: string | undefined, status?: number): LlmErrorKind {
  switch (type) {
    case 'overloaded_error':
      return 'overloaded';
    case 'rate_limit_error':
      return 'rate_limited';
    case 'api_error':
    case 'server_error':
      return 'server';
    case 'authentication_error':
    case 'permission_error':
    case 'billing_error':
      return 'auth';
    case 'timeout_error':
      return 'timeout';
    case 'request_too_large':
      return 'too_large';
    case 'not_found_error':
      return 'not_found';
    default:
      return status !== undefined && status > 0 ? kindOfStatus(status) : 'server';
  }
}
