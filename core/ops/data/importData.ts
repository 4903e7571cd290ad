import { z } from 'zod';

import { readWallos, type SourceIssue, wallosSubscriptions } from '../../imports/wallos.ts';
import { type InputIssue, isOpError, OpError } from '../../errors/index.ts';
import { defineOp, type OpContext } from '../../kernel/op.ts';
import { parseInput } from '../../kernel/validation.ts';
import { t } from '../../i18n/index.ts';
import { household } from '../shared/context.ts';
import { Currency, Id } from '../../domain/schemas.ts';
import { resolveOwner } from '../subscriptions/_lib/fields.ts';
import { ImportEnvelope } from './_lib/document.ts';
import { checkItem, type ValidItem } from './_lib/importItem.ts';
import { detectFormat, readDocument, type SourceFormat } from './_lib/readDocument.ts';
import { createdCounts, duplicateKey, ensureCatalog, existingKeys, importRates, writeSubscription } from './_lib/writeImport.ts';

const Problem = z.object({
  item: z.int().nullable().describe('1-based position of the subscription in the file; null for the file as a whole.'),
  name: z.string().nullable(),
  field: z.string().nullable().describe('The field as the file names it, such as "Price" or "charges.0.amount".'),
  message: z.string(),
});
type Problem = z.infer<typeof Problem>;

/** One subscription of the file before checking: what its format's reader made of it. */
interface Candidate {
  item: number;
  name: string | null;
  fields: unknown;
  problems: SourceIssue[];
  warnings: SourceIssue[];
  /** The file's name for an Exhale field path. */
  fieldName: (path: string) => string;
}

function nameOf(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null || !('name' in raw)) return null;
  return typeof raw.name === 'string' && raw.name.trim() !== '' ? raw.name.trim().slice(0, 120) : null;
}

function exhaleCandidates(ctx: OpContext, value: unknown): { envelope: ImportEnvelope; candidates: Candidate[] } {
  let envelope: ImportEnvelope;
  try {
    envelope = parseInput(ImportEnvelope, value, ctx.actor.locale);
  } catch (error) {
    if (isOpError(error)) throw new OpError('invalid_input', 'errors.data.bad_document', {}, error.issues);
    throw error;
  }
  const candidates = envelope.subscriptions.map((raw, index) => ({
    item: index + 1,
    name: nameOf(raw),
    fields: raw,
    problems: [],
    warnings: [],
    fieldName: (path: string) => path,
  }));
  return { envelope, candidates };
}

function wallosCandidates(ctx: OpContext, value: unknown, currency: string | undefined): Candidate[] {
  const list = wallosSubscriptions(value) ?? [];
  return readWallos(list, { locale: ctx.actor.locale, householdCurrency: household(ctx).currency, currency }).map((w) => ({
    item: w.item,
    name: w.name,
    fields: w.fields,
    problems: w.problems,
    warnings: w.warnings,
    fieldName: (path: string) => {
      const [head = '', ...rest] = path.split('.');
      return [w.sourceField[head] ?? head, ...rest].join('.');
    },
  }));
}

function problemOf(c: Candidate, issue: SourceIssue): Problem {
  return { item: c.item, name: c.name, field: issue.field, message: issue.message };
}

function fromInputIssue(c: Candidate, issue: InputIssue): Problem {
  return { item: c.item, name: c.name, field: issue.path === '' ? null : c.fieldName(issue.path), message: issue.message };
}

/** The strict-mode failure: every invalid item named, in the reader's language. */
function invalidItems(ctx: OpContext, problems: Problem[]): OpError {
  const items = new Set(problems.map((p) => p.item));
  const issues = problems.map((p) => {
    const label = p.name
      ? t(ctx.actor.locale, 'data.import.item_named', { item: p.item ?? 0, name: p.name })
      : t(ctx.actor.locale, 'data.import.item', { item: p.item ?? 0 });
    return { path: p.field ? `${label} › ${p.field}` : label, message: p.message };
  });
  return new OpError('invalid_input', 'errors.data.invalid_items', { count: items.size }, issues);
}

export const importData = defineOp({
  name: 'import_data',
  title: 'Import subscriptions from a file',
  description:
    'Imports subscriptions from an Exhale export ("exhale/1" JSON) or a Wallos JSON export. What already exists is skipped, so a second import adds nothing; all or nothing unless skip_invalid.',
  input: z.object({
    document: z
      // Parsed: an object (an Exhale or Wallos export) or a list of records (a Wallos list).
      .union([
        z.string(),
        z.array(z.record(z.string(), z.unknown())),
        z.record(z.string(), z.unknown()),
      ])
      .describe('The file: its JSON text (at most 5 MB), or the JSON already parsed.'),
    format: z.enum(['auto', 'exhale', 'wallos']).default('auto').describe('Default: detected from the content.'),
    skip_invalid: z
      .boolean()
      .default(false)
      .describe('Import the valid ones and report the others, instead of nothing.'),
    currency: Currency.optional().describe(
      'Wallos only: the currency of prices with a shared symbol ("$", "kr", "¥") or none; default: the household\'s when it fits.',
    ),
  }),
  output: z.object({
    format: z.enum(['exhale', 'wallos']),
    created: z.int(),
    skipped: z.int().describe('Left out: they already exist.'),
    invalid: z.int().describe('Left out as invalid (only with skip_invalid).'),
    also_created: z.object({
      categories: z.int(),
      payment_methods: z.int(),
      tags: z.int(),
      charges: z.int(),
      price_changes: z.int(),
      exchange_rates: z.int(),
    }),
    items: z.array(
      z.object({
        item: z.int(),
        name: z.string().nullable(),
        result: z.enum(['created', 'skipped', 'invalid']),
        subscription_id: Id.nullable(),
      }),
    ),
    problems: z.array(Problem).describe('Why items are invalid.'),
    warnings: z.array(Problem).describe('What was imported differently from the file, and why.'),
  }),
  effect: 'write',
  summarize: (_input, output) => ({ count: output.created, skipped: output.skipped }),
  summaryVariant: (_input, output) => `${output.format}${output.created === 1 ? '_one' : ''}`,
  async run(ctx, input) {
    const value = readDocument(input.document);
    const format: SourceFormat = detectFormat(value, input.format);
    const exhale = format === 'exhale' ? exhaleCandidates(ctx, value) : null;
    const candidates = exhale ? exhale.candidates : wallosCandidates(ctx, value, input.currency);

    // Whose subscriptions in the file are the caller's own: theirs, and the exporter's.
    const own = new Set([ctx.actor.memberId, exhale?.envelope.exported_by].filter((m): m is string => typeof m === 'string'));
    const problems: Problem[] = [];
    const warnings: Problem[] = [];
    const valid = new Map<number, ValidItem>();
    for (const c of candidates) {
      warnings.push(...c.warnings.map((w) => problemOf(c, w)));
      if (c.problems.length > 0) {
        problems.push(...c.problems.map((p) => problemOf(c, p)));
        continue;
      }
      const checked = checkItem(ctx, c.fields);
      if (checked.ok) {
        valid.set(c.item, checked.item);
        // Everything imported is the caller's: say so when the file gave it to someone else (not
        // the caller, not whoever exported it) or split its cost.
        const someoneElse =
          checked.item.sourceMember !== null && !own.has(checked.item.sourceMember);
        if (someoneElse || checked.item.splitShares)
          warnings.push(
            problemOf(c, {
              field: someoneElse ? 'member_id' : 'shares',
              message: t(ctx.actor.locale, 'data.import.made_yours'),
            }),
          );
      } else problems.push(...checked.issues.map((issue) => fromInputIssue(c, issue)));
    }
    if (problems.length > 0 && !input.skip_invalid) throw invalidItems(ctx, problems);

    if (exhale) {
      await ensureCatalog(ctx, exhale.envelope);
      const mayRate = ctx.actor.role === 'owner' || ctx.actor.kind === 'system';
      if (mayRate) await importRates(ctx, exhale.envelope.exchange_rates);
      else if (exhale.envelope.exchange_rates.length > 0) {
        warnings.push({ item: null, name: null, field: 'exchange_rates', message: t(ctx.actor.locale, 'data.import.rates_owner_only') });
      }
    }

    const owner = await resolveOwner(ctx, undefined);
    // Private stays private only for the importer's own subscriptions: theirs in this household, or the exporter's.
    const keys = await existingKeys(ctx);
    const items: Array<{ item: number; name: string | null; result: 'created' | 'skipped' | 'invalid'; subscription_id: string | null }> = [];
    for (const c of candidates) {
      const item = valid.get(c.item);
      if (!item) {
        items.push({ item: c.item, name: c.name, result: 'invalid', subscription_id: null });
        continue;
      }
      const key = duplicateKey(item.fields);
      if (keys.has(key)) {
        items.push({ item: c.item, name: item.fields.name, result: 'skipped', subscription_id: null });
        continue;
      }
      const keepPrivate = item.private && item.sourceMember !== null && own.has(item.sourceMember);
      const id = await writeSubscription(ctx, item, owner, keepPrivate);
      keys.add(key);
      items.push({ item: c.item, name: item.fields.name, result: 'created', subscription_id: id });
    }

    const count = (result: 'created' | 'skipped' | 'invalid') => items.filter((i) => i.result === result).length;
    return {
      format,
      created: count('created'),
      skipped: count('skipped'),
      invalid: count('invalid'),
      also_created: createdCounts(ctx.tx.changes),
      items,
      problems,
      warnings,
    };
  },
});
