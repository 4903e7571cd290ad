import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ERROR_CODES, type ErrorCode, type Locale, localeFrom, OpError } from '../../core/index.ts';

/**
 * The language of a request's error sentences, from `Accept-Language`: the most preferred of the
 * tags Exhale speaks (`en`, `es`, any region), English when none or no header.
 */
export function localeOf(acceptLanguage: string | undefined): Locale {
  if (!acceptLanguage) return 'en';
  let best: { locale: Locale; q: number } | null = null;
  for (const part of acceptLanguage.split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    const base = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (!(q > 0) || (base !== 'en' && base !== 'es')) continue;
    if (!best || q > best.q) best = { locale: localeFrom(base), q };
  }
  return best?.locale ?? 'en';
}

/** The code a bare HTTP status stands for (Hono's own `HTTPException`s carry only a status). */
function codeForStatus(status: number): ErrorCode {
  const code = (Object.keys(ERROR_CODES) as ErrorCode[]).find(
    (k) => ERROR_CODES[k].http === status,
  );
  if (code) return code;
  return status < 500 ? 'invalid_input' : 'internal';
}

/**
 * Any failure as the `OpError` the edge answers with: an `OpError` as it is, an `HTTPException` by
 * its status; anything else is `internal` (never a client fault).
 */
export function toEdgeError(error: unknown): OpError {
  if (error instanceof OpError) return error;
  if (error instanceof HTTPException) return new OpError(codeForStatus(error.status));
  return new OpError('internal');
}

/**
 * The one shape of every error the edge answers: `ERROR_CODES[code].http` and
 * `{ error: code, message }`, the sentence in the request's language, never a stack trace. A 413
 * also closes the connection, so the rest of an oversized body is not read.
 */
export function errorResponse(c: Context, error: OpError): Response {
  const message = error.render(localeOf(c.req.header('accept-language')));
  const headers: Record<string, string> = error.code === 'too_large' ? { connection: 'close' } : {};
  return c.json({ error: error.code, message }, ERROR_CODES[error.code].http, headers);
}
