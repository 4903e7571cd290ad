import { z } from 'zod';

import { AMOUNT_PATTERN } from '../domain/schemas.ts';
import { type Locale, t } from '../i18n/index.ts';
import { type InputIssue, OpError } from '../errors/index.ts';
import { jsonTooDeep, tooDeep } from './jsonDepth.ts';

/** Patterns with a sentence of their own; zod reports a regex as its `/…/` text. */
const PATTERN_KEYS = new Map<string, string>([[String(AMOUNT_PATTERN), 'errors.input.amount']]);

type RawIssue = Parameters<z.core.$ZodErrorMap>[0];

/** An error map in the reader's language: zod's own locale, plus our keys for custom checks. */
function errorMap(locale: Locale): z.core.$ZodErrorMap {
  const base = (locale === 'es' ? z.locales.es() : z.locales.en()).localeError;
  return (issue: RawIssue) => {
    if (issue.code === 'custom') {
      const key = (issue.params as { i18n?: string } | undefined)?.i18n;
      if (key) return t(locale, key);
    }
    if (
      issue.code === 'invalid_format' &&
      'pattern' in issue &&
      typeof issue.pattern === 'string'
    ) {
      // A person cannot read a regular expression; the JSON Schema still shows it to agents.
      return t(locale, PATTERN_KEYS.get(issue.pattern) ?? 'errors.input.format');
    }
    // A web address in the reader's words: zod's own ("Invalid URL", "Inválido URL") reads badly.
    if (issue.code === 'invalid_format' && issue.format === 'url')
      return t(locale, 'errors.input.url');
    if (issue.code === 'unrecognized_keys') {
      return t(locale, 'errors.input.unknown_keys', { keys: issue.keys.join(', ') });
    }
    return plain(locale, issue) ?? base(issue);
  };
}

const KINDS = new Set(['string', 'number', 'int', 'boolean', 'array', 'object']);

/**
 * The common mistakes in words a person reads ("Can't be empty.", "Must be one of: en, es."), in
 * their language; null for the rest, which zod's own locale words well enough.
 */
function plain(locale: Locale, issue: RawIssue): string | null {
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1
          ? t(locale, 'errors.input.empty')
          : t(locale, 'errors.input.too_short', { min: Number(issue.minimum) });
      if (issue.origin === 'array')
        return t(locale, 'errors.input.too_few', { min: Number(issue.minimum) });
      if (issue.origin === 'number')
        return t(locale, 'errors.input.too_low', { min: Number(issue.minimum) });
      return null;
    case 'too_big':
      if (issue.origin === 'string')
        return t(locale, 'errors.input.too_long', { max: Number(issue.maximum) });
      if (issue.origin === 'array')
        return t(locale, 'errors.input.too_many', { max: Number(issue.maximum) });
      if (issue.origin === 'number')
        return t(locale, 'errors.input.too_high', { max: Number(issue.maximum) });
      return null;
    case 'invalid_type':
      if (issue.input === undefined) return t(locale, 'errors.input.required');
      return KINDS.has(issue.expected)
        ? t(locale, 'errors.input.expected', {
            kind: t(locale, `errors.input.kind.${issue.expected}`),
          })
        : null;
    case 'invalid_value':
      return t(locale, 'errors.input.one_of', {
        values: issue.values.map((v) => String(v)).join(', '),
      });
    default:
      return null;
  }
}

/**
 * A union none of whose branches fit, where every branch but one failed on the value's very type
 * (an id where `"x" | {id, …}` was asked, given an object): the issues of that one branch, at
 * their own paths (`candidates.2.cycle.unit`), rather than one "invalid input" at the union.
 */
function branchIssues(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union') return [issue];
  const typeOnly = (branch: z.core.$ZodIssue[]) =>
    branch.every((i) => i.code === 'invalid_type' && i.path.length === 0);
  const fitting = issue.errors.filter((branch) => !typeOnly(branch));
  const only = fitting[0];
  if (fitting.length !== 1 || !only) return [issue];
  return only.flatMap(branchIssues).map((i) => ({ ...i, path: [...issue.path, ...i.path] }));
}

/** Parses an op input; a failure is an `invalid_input` OpError listing each issue in the locale. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  locale: Locale,
): z.output<S> {
  // Before zod, which (like everything else that walks it) recurses once per level of nesting.
  if (jsonTooDeep(input)) throw tooDeep();
  const result = schema.safeParse(input ?? {}, { error: errorMap(locale) });
  if (result.success) return result.data;
  const issues: InputIssue[] = result.error.issues.flatMap(branchIssues).map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  throw new OpError('invalid_input', 'errors.invalid_input', {}, issues);
}
