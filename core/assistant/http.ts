import { isLlmError, kindOfStatus, kindOfType, LlmError } from './errors.ts';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface HttpOptions {
  fetch: FetchLike;
  /** The longest wait a retry may take; a server asking for longer gets no retry. */
  maxRetryWaitMs: number;
  /** The wait before the retry when the server names none. */
  retryDelayMs: number;
}

export const DEFAULT_HTTP: Omit<HttpOptions, 'fetch'> = {
  maxRetryWaitMs: 20_000,
  retryDelayMs: 500,
};

/** The wait a response asks for: `retry-after-ms`, else `retry-after` in seconds or as an HTTP date. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const after = headers.get('retry-after');
  if (after === null) return undefined;
  if (/^\d+(\.\d+)?$/.test(after.trim())) return Math.ceil(Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

interface ErrorBody {
  type?: unknown;
  message?: unknown;
  code?: unknown;
  error?:
    | {
        type?: unknown;
        message?: unknown;
        code?: unknown;
        details?: { error_code?: unknown } | null;
      }
    | string
    | null;
}

/** The provider's error type/code and message from an error body of either protocol (or a proxy). */
export function describeErrorBody(text: string): {
  code: string | undefined;
  message: string;
  spendCap: boolean;
} {
  let parsed: ErrorBody | undefined;
  try {
    parsed = JSON.parse(text) as ErrorBody;
  } catch {
    return { code: undefined, message: text.slice(0, 2000), spendCap: false };
  }
  const err = parsed?.error;
  if (err && typeof err === 'object') {
    const code =
      typeof err.type === 'string' ? err.type : typeof err.code === 'string' ? err.code : undefined;
    const message = typeof err.message === 'string' ? err.message : text.slice(0, 2000);
    return { code, message, spendCap: err.details?.error_code === 'enforced_spend_limit_reached' };
  }
  const code =
    typeof parsed?.type === 'string'
      ? parsed.type
      : typeof parsed?.code === 'string'
        ? parsed.code
        : undefined;
  const message =
    typeof parsed?.message === 'string'
      ? parsed.message
      : typeof err === 'string'
        ? err
        : text.slice(0, 2000);
  return { code, message: message === '' ? text.slice(0, 2000) : message, spendCap: false };
}

/** The error a non-2xx response stands for, with what it says about retrying. */
export async function errorOfResponse(response: Response): Promise<LlmError> {
  const text = await response.text().catch(() => '');
  const { code, message, spendCap } = describeErrorBody(text);
  const shouldRetry = response.headers.get('x-should-retry');
  const kind =
    response.status === 400 || response.status === 422
      ? 'bad_request'
      : kindOfStatus(response.status);
  return new LlmError(
    kind === 'server' && code ? kindOfType(code, response.status) : kind,
    `${response.status} ${message}`,
    {
      status: response.status,
      code,
      retryAfterMs: retryAfterMs(response.headers),
      noRetry: shouldRetry === 'false' || spendCap,
    },
  );
}

/** POSTs JSON; a non-2xx answer becomes an LlmError, a failed connection a `network` (or `timeout`) one. */
export async function postJson(
  http: HttpOptions,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal?: AbortSignal,
): Promise<Response> {
  let response: Response;
  try {
    response = await http.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    throw networkError(error, signal);
  }
  if (!response.ok) throw await errorOfResponse(response);
  return response;
}

/** Turns a thrown fetch/read failure into an LlmError: aborted by our time limit is `timeout`. */
export function networkError(error: unknown, signal?: AbortSignal): LlmError {
  if (isLlmError(error)) return error;
  if (signal?.aborted) return new LlmError('timeout', 'the call took too long and was stopped');
  const message =
    error instanceof Error
      ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ''}`
      : String(error);
  return new LlmError('network', message);
}

/**
 * Runs `attempt`, and once more when it fails in a way worth retrying (429, 5xx, overloaded, a
 * dropped connection) before any text reached the member, after the wait the server asked for.
 */
export async function withOneRetry<T>(
  http: HttpOptions,
  attempt: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!isLlmError(error) || !error.retryable) throw error;
    const wait = error.options.retryAfterMs ?? http.retryDelayMs;
    if (wait > http.maxRetryWaitMs) throw error;
    await sleep(wait, signal);
    return attempt();
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new LlmError('timeout', 'the call took too long and was stopped'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new LlmError('timeout', 'the call took too long and was stopped'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `http://host:1234` → `http://host:1234/v1`; a URL with a path keeps it; no trailing slash. */
export function normaliseBaseUrl(base: string): string {
  const url = new URL(base.trim());
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path === '' ? '/v1' : path;
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

/** Whether a response is a stream (it may be plain JSON even when a stream was asked for). */
export function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream');
}
