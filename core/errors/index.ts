import { formatDate } from '../i18n/dates.ts';
import type { Locale, TextParams } from '../i18n/index.ts';
import { t, TEXT_KEYS } from '../i18n/index.ts';

/**
 * The one table of error codes. Every edge maps a code the same way: HTTP status for the web API,
 * `isError` results for MCP tools, a translated sentence in chat. `client` says whether the caller
 * can fix it by changing the request; internal failures are never labelled as client faults.
 */
export const ERROR_CODES = {
  invalid_input: { http: 400, client: true },
  unauthorized: { http: 401, client: true },
  forbidden: { http: 403, client: true },
  insufficient_scope: { http: 403, client: true },
  not_found: { http: 404, client: true },
  conflict: { http: 409, client: true },
  undo_conflict: { http: 409, client: true },
  confirmation_required: { http: 409, client: true },
  too_large: { http: 413, client: true },
  rate_limited: { http: 429, client: true },
  unavailable: { http: 503, client: false },
  internal: { http: 500, client: false },
} as const satisfies Record<string, { http: number; client: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** One issue of an invalid input: where it is and what is wrong, already in the reader's language. */
export interface InputIssue {
  path: string;
  message: string;
}

/**
 * The single error type of Exhale. `key` is a text key (`errors.*`) rendered in the reader's
 * language at the edge; `params` fill its placeholders.
 */
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

export class OpError extends Error {
  override readonly name = 'OpError';
  readonly code: ErrorCode;
  readonly key: string;
  readonly params: TextParams;
  readonly issues: InputIssue[];

  constructor(
    code: ErrorCode,
    key: string = `errors.${code}`,
    params: TextParams = {},
    issues: InputIssue[] = [],
  ) {
    super(t('en', key, params));
    this.code = code;
    this.key = key;
    this.params = params;
    this.issues = issues;
  }

  get httpStatus(): number {
    return ERROR_CODES[this.code].http;
  }

  /** The sentence a person reads, with the input issues appended one per line. */
  render(locale: Locale): string {
    const params = { ...this.params };
    // A `table` parameter names a kind of record, in the reader's words ("Subscription").
    const table = params.table;
    if (typeof table === 'string' && TEXT_KEYS.includes(`assistant.table.${table}`))
      params.table = t(locale, `assistant.table.${table}`);
    // A `date` (YYYY-MM-DD) as the reader writes dates ("Sun, 6 Dec 2026", "dom, 6 dic 2026").
    if (typeof params.date === 'string' && ISO_DAY.test(params.date))
      params.date = formatDate(params.date, locale);
    const head = t(locale, this.key, params);
    if (this.issues.length === 0) return head;
    return [
      head,
      ...this.issues.map((i) => (i.path ? `- ${i.path}: ${i.message}` : `- ${i.message}`)),
    ].join('\n');
  }
}

export function isOpError(error: unknown): error is OpError {
  return error instanceof OpError;
}

/** Normalises anything thrown into an OpError; unknown failures become `internal`, never a client fault. */
export function toOpError(error: unknown): OpError {
  if (error instanceof OpError) return error;
  return new OpError('internal');
}

/** Entities named in "not found" errors; each has an `errors.not_found.<entity>` text. */
export type EntityName =
  | 'household'
  | 'member'
  | 'subscription'
  | 'charge'
  | 'category'
  | 'payment_method'
  | 'tag'
  | 'invite'
  | 'token'
  | 'activity';

export const notFound = (entity: EntityName, id: string): OpError =>
  new OpError('not_found', `errors.not_found.${entity}`, { id });
