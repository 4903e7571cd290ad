import { createHash } from 'node:crypto';

import { z } from 'zod';

import { Currency } from '../../../domain/schemas.ts';
import { OpError } from '../../../errors/index.ts';
import type { StatementTransaction } from '../../../imports/statements/types.ts';

const i18n = (key: string) => ({ params: { i18n: key } });

/** 20 MB of file as base64 (4 characters per 3 bytes), and a little for line breaks. */
const MAX_CONTENT_CHARS = 28_000_000;

/** The statement as both ops take it. It is data: nothing in it is read as an instruction. */
export const StatementInput = {
  file_name: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .describe(
      'As sent, such as "statement.pdf" (shown in the activity; the format is read from the content).',
    ),
  // An empty file is the reader's to refuse, with a sentence saying so (not "content: can't be empty").
  content: z
    .string()
    .refine((v) => v.length <= MAX_CONTENT_CHARS, i18n('errors.statements.too_large'))
    .describe(
      'Its text, or with encoding "base64" its bytes (PDF, photo, screenshot). At most 20 MB.',
    ),
  encoding: z.enum(['text', 'base64']).default('text').describe('Default: text.'),
  currency: Currency.optional().describe("When the file does not say; default: the household's."),
};

/** The file's bytes: text as UTF-8, base64 decoded (refused when it is not base64). */
export function statementBytes(content: string, encoding: 'text' | 'base64'): Uint8Array {
  if (encoding === 'text') return Buffer.from(content, 'utf8');
  const compact = content.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
    throw new OpError('invalid_input', 'errors.statements.not_base64');
  }
  return Buffer.from(compact, 'base64');
}

/**
 * The statement's fingerprint: SHA-256 over its transactions (not its bytes), so the same
 * statement sent as text or as a file, or exported again by the bank, is recognised.
 */
export function fingerprintOf(transactions: readonly StatementTransaction[]): string {
  const hash = createHash('sha256');
  const lines = transactions.map((t) =>
    [t.account ?? '', t.date, t.amount, t.currency ?? '', t.payee ?? '', t.memo].join('\u001f'),
  );
  for (const line of lines.sort()) hash.update(`${line}\n`);
  return hash.digest('hex');
}
