import { ref } from 'vue';

import { locale } from './i18n.ts';
import type { Confirmed, In, Issue, Me, OpName, Out, Pending } from './types.ts';

/**
 * The one client of Exhale's API (docs/miniapp.md): every call carries the Telegram launch's
 * init data (`Authorization: tma …`) or rides on the session cookie. A 401 anywhere puts the app
 * on its sign-in screen with the server's sentence.
 */
let initDataRaw: string | null = null;

export function useTelegramAuth(raw: string): void {
  initDataRaw = raw;
}
export function telegramInitData(): string | null {
  return initDataRaw;
}

export interface AuthProblem {
  reason: 'missing' | 'invalid' | 'expired' | string;
  message: string;
  /** Whether a Telegram bot serves this server (false: a link comes from the terminal chat or CLI). */
  bot: boolean;
}
/** Set when the server refused the credentials; App.vue then shows the sign-in screen. */
export const authProblem = ref<AuthProblem | null>(null);

/** An error answer of the API: its code, the server's sentence, and the input fields at fault. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: Issue[] = [],
    readonly field: string | null = null,
    /** A "$" statement's likely currencies, when the server asks which one it is in. */
    readonly currencies: string[] = [],
  ) {
    super(message);
  }

  /** Field errors by the first segment of their path (`amount`, `cycle`…). */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const issue of this.issues) {
      const key = String(issue.path[0] ?? '');
      if (key && !(key in out)) out[key] = issue.message;
    }
    if (this.field && !(this.field in out)) out[this.field] = this.message;
    return out;
  }
}

function headers(json: boolean): Record<string, string> {
  const h: Record<string, string> = { 'Accept-Language': locale.value };
  if (json) h['Content-Type'] = 'application/json';
  if (initDataRaw) h.Authorization = `tma ${initDataRaw}`;
  return h;
}

interface ErrorBody {
  error?: string;
  message?: string;
  reason?: string;
  /** On a 401: whether a Telegram bot serves this server. */
  bot?: boolean;
  issues?: Issue[];
  field?: string;
  currencies?: string[];
}

async function fail(response: Response): Promise<never> {
  let body: ErrorBody = {};
  try {
    body = (await response.json()) as ErrorBody;
  } catch {
    // Not JSON (a proxy's page): the status alone says what happened.
  }
  const message = body.message ?? `${response.status} ${response.statusText}`;
  if (response.status === 401) {
    authProblem.value = { reason: body.reason ?? 'missing', message, bot: body.bot !== false };
  }
  throw new ApiError(
    response.status,
    body.error ?? 'http',
    message,
    body.issues ?? [],
    body.field ?? null,
    body.currencies ?? [],
  );
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: headers(body !== undefined),
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (!response.ok) return fail(response);
  return (await response.json()) as T;
}

/** The `Authorization` this client sends (init data inside Telegram), or null (the cookie). */
export function authorization(): string | null {
  return initDataRaw ? `tma ${initDataRaw}` : null;
}

export interface OpResult<T> {
  output: T;
  auditId: string | null;
  changes: number;
}

/** Runs an op through `POST /api/ops/<name>` (the server calls core.invoke on surface web). */
export function op<N extends OpName>(
  name: N,
  input: In<N> | Record<string, never> = {},
): Promise<OpResult<Out<N>>> {
  return request('POST', `/api/ops/${name}`, { input });
}

/** Runs an op as a dry run: what it would answer, or its error, and nothing written. */
export function dryRun<N extends OpName>(name: N, input: In<N>): Promise<OpResult<Out<N>>> {
  return request('POST', `/api/ops/${name}`, { input, dryRun: true });
}

/** An op this build does not know the type of (the server's newer ops): its output unchecked. */
export function opUntyped<T>(
  name: string,
  input: Record<string, unknown> = {},
): Promise<OpResult<T>> {
  return request('POST', `/api/ops/${name}`, { input });
}

/** Prepares a write: Exhale's card from a dry run, to confirm once. */
export async function prepare(name: string, input: Record<string, unknown>): Promise<Pending> {
  const answer = await request<{ pending: Pending }>('POST', `/api/ops/${name}`, {
    input,
    prepare: true,
  });
  return answer.pending;
}

export function confirm(id: string): Promise<Confirmed> {
  return request('POST', `/api/pending/${encodeURIComponent(id)}/confirm`, {});
}

export function discard(id: string): Promise<{ discarded: true }> {
  return request('POST', `/api/pending/${encodeURIComponent(id)}/discard`, {});
}

export function me(): Promise<Me> {
  return request('GET', '/api/me');
}

/** One read of a batch: an op and its input. */
export interface BatchCall<N extends OpName = OpName> {
  op: N;
  input: In<N> | Record<string, never>;
}
/** A call of a batch that failed: what the op's own route would have answered. */
interface BatchFailure {
  status: number;
  error: string;
  message: string;
  field?: string;
  issues?: Issue[];
}
type BatchResult = OpResult<unknown> | BatchFailure;

/**
 * Several reads in one round trip (`POST /api/batch`, the same ops and policy as `op()`), and who
 * is signed in with `me`. Each result is the op's answer, in the order asked, or its error (an
 * `ApiError`, as `op()` would throw) to rethrow where the result is used.
 */
export async function batch(
  calls: readonly BatchCall[],
  options: { me: true; sent?: Promise<Response> | undefined },
): Promise<{ me: Me; results: Array<OpResult<unknown> | ApiError> }> {
  // `sent`: the same request, sent by index.html's bootstrap before this code ran; when it did not
  // succeed it is sent again from here, so its failure reads as any other call's.
  const early = options.sent ? await options.sent.catch(() => null) : null;
  const answer = early?.ok
    ? ((await early.json()) as { me: Me; results: BatchResult[] })
    : await request<{ me: Me; results: BatchResult[] }>('POST', '/api/batch', {
        me: options.me,
        calls,
      });
  return {
    me: answer.me,
    results: answer.results.map((r) =>
      'status' in r
        ? new ApiError(r.status, r.error, r.message, r.issues ?? [], r.field ?? null)
        : r,
    ),
  };
}

export async function signIn(code: string): Promise<void> {
  await request('POST', '/api/session', { code });
  authProblem.value = null;
}

/**
 * Joins the household of an invite from this browser (`POST /api/join`): the new member is
 * signed in (the answer sets the session cookie).
 */
export async function joinHousehold(input: {
  code: string;
  name: string;
  language: 'en' | 'es';
}): Promise<{ joined: true; household: string; member: string; expiresAt: string }> {
  const answer = await request<{
    joined: true;
    household: string;
    member: string;
    expiresAt: string;
  }>('POST', '/api/join', input);
  authProblem.value = null;
  return answer;
}

export async function signOut(): Promise<void> {
  await request('DELETE', '/api/session');
}

/** The URL of a QR code for a text (an invite link, a token), served as SVG by Exhale. */
export async function qrSvgUrl(text: string): Promise<string> {
  const response = await fetch(`/api/qr?text=${encodeURIComponent(text)}`, {
    headers: headers(false),
    credentials: 'same-origin',
  });
  if (!response.ok) return fail(response);
  return URL.createObjectURL(await response.blob());
}

/** Posts a form (a statement upload). */
export async function upload<T>(path: string, form: FormData): Promise<T> {
  const response = await fetch(path, {
    method: 'POST',
    headers: headers(false),
    body: form,
    credentials: 'same-origin',
  });
  if (!response.ok) return fail(response);
  return (await response.json()) as T;
}

/** Streams a POST answered with text/event-stream (the Ask screen): one call per event. */
export async function streamEvents(
  path: string,
  body: unknown,
  onEvent: (event: string, data: unknown) => void,
): Promise<void> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { ...headers(true), Accept: 'text/event-stream' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (!response.ok || !response.body) return fail(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length === 0) continue;
      try {
        onEvent(event, JSON.parse(data.join('\n')));
      } catch {
        onEvent(event, data.join('\n'));
      }
    }
  }
}
