import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';

import { ERROR_CODES, isOpError, type Locale, localeFrom, OpError } from '../../core/index.ts';

/**
 * The API's answers for failures, in the contract's shape: the edge's mapping (an `OpError`'s code
 * → `ERROR_CODES[code].http`, its sentence rendered in the reader's language), plus what the app
 * needs to put an error under its field: `field` (the first issue's path) and `issues`.
 */

/** The language of a request whose member is not known yet: the preferred of `Accept-Language`'s en/es. */
export function browserLocale(acceptLanguage: string | undefined): Locale {
  let best: { locale: Locale; q: number } | null = null;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const q = Number(
      params
        .find((p) => p.trim().startsWith('q='))
        ?.trim()
        .slice(2) ?? 1,
    );
    const base = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (!(q > 0) || (base !== 'en' && base !== 'es')) continue;
    if (!best || q > best.q) best = { locale: localeFrom(base), q };
  }
  return best?.locale ?? 'en';
}

/** The reader's language of each request once known (the member's), else the browser's. */
const readers = new WeakMap<Request, Locale>();

export function setReader(c: Context, locale: Locale): void {
  readers.set(c.req.raw, locale);
}

export function readerOf(c: Context): Locale {
  return readers.get(c.req.raw) ?? browserLocale(c.req.header('accept-language'));
}

export interface ApiError {
  error: string;
  message: string;
  field?: string;
  issues?: Array<{ path: string[]; message: string }>;
}

/** The body of an `OpError` in the reader's language. */
export function apiErrorBody(error: OpError, locale: Locale): ApiError {
  const body: ApiError = { error: error.code, message: error.render(locale) };
  if (error.issues.length > 0) {
    body.issues = error.issues.map((issue) => ({
      path: issue.path === '' ? [] : issue.path.split('.'),
      message: issue.message,
    }));
    const first = error.issues[0]?.path;
    if (first) body.field = first;
  }
  return body;
}

/**
 * The route group's error handler: an `OpError` as the contract says, a response built on purpose
 * (401 with its reason) as it is, anything else `internal` (logged once, never a client fault).
 */
export function onApiError(error: Error, c: Context): Response {
  if (error instanceof HTTPException && error.res) return error.getResponse();
  const opError = isOpError(error)
    ? error
    : error instanceof HTTPException
      ? statusError(error.status)
      : new OpError('internal');
  if (opError.code === 'internal' || opError.code === 'unavailable') {
    const log: unknown = c.get('log');
    if (typeof log === 'function') log(`${opError.httpStatus} ${opError.code}`, error);
  }
  return c.json(apiErrorBody(opError, readerOf(c)), ERROR_CODES[opError.code].http);
}

function statusError(status: number): OpError {
  if (status === 413) return new OpError('too_large');
  if (status === 404) return new OpError('not_found');
  return status < 500 ? new OpError('invalid_input') : new OpError('internal');
}
