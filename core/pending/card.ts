import type { Knex } from 'knex';
import { z } from 'zod';

import { formatAmount, NO_CURRENCY } from '../domain/money.ts';
import { formatDate } from '../i18n/dates.ts';
import { catalogFor, type Locale, t, TEXT_KEYS } from '../i18n/index.ts';
import { money } from '../i18n/numbers.ts';
import type { AnyOp } from '../kernel/op.ts';
import type { Change, Row } from '../store/tracked.ts';

/**
 * The card of a pending change, written by Exhale from the dry run (the op, its output, the rows it
 * would change): never from a model's words. Values shown are what the database would hold. This is
 * the one writer of such cards: MCP previews, the assistant's cards and every later surface show it.
 */
export const CardSchema = z.object({
  title: z.string(),
  lines: z.array(z.string()),
  destructive: z.boolean(),
});
export type Card = z.infer<typeof CardSchema>;

const MAX_LINES = 8;
/** Columns that change with everything, or say nothing to a person. */
const QUIET = new Set([
  'id',
  'household_id',
  'created_at',
  'updated_at',
  'recorded_at',
  'currency',
  'cycle_every',
  'private_to',
]);
const REFERENCES: Record<string, string> = {
  category_id: 'categories',
  payment_method_id: 'payment_methods',
  member_id: 'members',
  subscription_id: 'subscriptions',
};

/** A calendar date as stored (`YYYY-MM-DD`): shown in the reader's format. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Writes the card of a change from its dry run, in the reader's language. */
export async function previewCard(
  db: Knex,
  op: AnyOp,
  output: unknown,
  changes: readonly Change[],
  locale: Locale,
): Promise<Card> {
  const destructive =
    op.effect === 'destructive' ||
    changes.some((c) => c.after === null && c.table === 'subscriptions');
  const names = await referenceNames(db, changes);
  return {
    title: titleOf(op, output, changes, locale),
    lines: linesOf(changes, names, locale).map(oneLine),
    destructive,
  };
}

function subjectName(output: unknown, changes: readonly Change[]): string | null {
  if (isObj(output)) {
    // `client_name`: the app a connect or disconnect is about ("Disconnect Claude.ai?").
    for (const key of ['name', 'subscription_name', 'client_name'])
      if (typeof output[key] === 'string') return output[key];
    // `target`: what a merge keeps ("Merge categories into Streaming?"); `household` before
    // `member`: creating or joining a household is about the household ("Join Casa García?").
    for (const key of [
      'subscription',
      'category',
      'tag',
      'payment_method',
      'household',
      'member',
      'target',
    ]) {
      const inner = output[key];
      if (isObj(inner) && typeof inner.name === 'string') return inner.name;
    }
  }
  const row = changes.find((c) => c.table === 'subscriptions') ?? changes[0];
  const image = row?.after ?? row?.before;
  return image && typeof image.name === 'string' ? image.name : null;
}

/** One line: whatever a name holds, a card's layout is Exhale's. */
const oneLine = (text: string): string => text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ');

/**
 * The title, in the reader's language, for every write op: `assistant.propose.<op>` when what it
 * needs is known (a `{name}`, a `{count}` above zero), else `assistant.propose.unnamed.<op>` ("Add a
 * subscription?"). The op's English `title` is the last resort of an op with neither key (a test
 * walks the catalog so that no write op reaches it).
 */
function titleOf(op: AnyOp, output: unknown, changes: readonly Change[], locale: Locale): string {
  const found = subjectName(output, changes);
  const name = found === null ? null : oneLine(found);
  const count = countOf(output, changes);
  // A bulk change that only deletes says so ("Delete 4 subscriptions?"), like a single delete.
  const deletesOnly =
    changes.some((c) => c.table === 'subscriptions') &&
    changes.every((c) => c.table !== 'subscriptions' || c.after === null);
  const base =
    op.name === 'bulk_update_subscriptions' && deletesOnly ? 'bulk_delete_subscriptions' : op.name;
  const specific = `assistant.propose.${base}`;
  const template = catalogFor('en')[specific];
  const params = { name: name ?? '', count, currency: currencyOf(output) ?? '' };
  const known = (placeholder: string, value: boolean) =>
    template === undefined || !template.includes(`{${placeholder}}`) || value;
  if (
    template !== undefined &&
    known('name', name !== null) &&
    known('count', count > 0) &&
    known('currency', params.currency !== '')
  ) {
    // One reads in the singular ("Delete 1 subscription?"): `<key>_one` when there is one.
    const key = count === 1 && TEXT_KEYS.includes(`${specific}_one`) ? `${specific}_one` : specific;
    return t(locale, key, params);
  }
  const unnamed = `assistant.propose.unnamed.${base}`;
  if (TEXT_KEYS.includes(unnamed)) return t(locale, unnamed);
  return t(locale, 'assistant.propose.generic', { title: op.title });
}

/** How many things the change is about: entries an undo takes back, else subscriptions touched. */
function countOf(output: unknown, changes: readonly Change[]): number {
  if (isObj(output) && Array.isArray(output.undone)) return output.undone.length;
  const touched = new Set<string>();
  for (const c of changes) {
    const image = c.after ?? c.before;
    if (c.table === 'subscriptions') touched.add(c.id);
    else if (image && typeof image.subscription_id === 'string') touched.add(image.subscription_id);
  }
  return touched.size;
}

/** The currency a change is about (an exchange rate's), when its output names one. */
function currencyOf(output: unknown): string | null {
  return isObj(output) && typeof output.currency === 'string' ? oneLine(output.currency) : null;
}

async function referenceNames(db: Knex, changes: readonly Change[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const change of changes) {
    const row = change.after ?? change.before;
    if (row && typeof row.name === 'string') names.set(change.id, row.name);
  }
  const wanted = new Map<string, Set<string>>();
  for (const change of changes) {
    for (const image of [change.before, change.after]) {
      if (!image) continue;
      for (const [column, table] of Object.entries(REFERENCES)) {
        const id = image[column];
        if (typeof id === 'string' && !names.has(id))
          (wanted.get(table) ?? wanted.set(table, new Set()).get(table))?.add(id);
      }
    }
  }
  for (const [table, ids] of wanted) {
    const rows = (await db(table)
      .whereIn('id', [...ids])
      .select('id', 'name')) as Array<{ id: string; name: string }>;
    for (const row of rows) names.set(row.id, row.name);
  }
  return names;
}

function tableLabel(table: string, locale: Locale): string {
  const key = `assistant.table.${table}`;
  return TEXT_KEYS.includes(key) ? t(locale, key) : table;
}

function fieldLabel(column: string, locale: Locale): string {
  const key = `assistant.field.${column}`;
  return TEXT_KEYS.includes(key) ? t(locale, key) : column.replace(/_/g, ' ');
}

function valueText(row: Row, column: string, names: Map<string, string>, locale: Locale): string {
  const value = row[column];
  if (value === null || value === undefined || value === '') return '—';
  if (column.endsWith('_minor') && typeof value === 'number') {
    const currency = typeof row.currency === 'string' ? row.currency : '';
    const amount = formatAmount(value, currency || NO_CURRENCY);
    return currency ? money(amount, currency, locale) : amount;
  }
  if (typeof value === 'string' && ISO_DATE.test(value)) return formatDate(value, locale);
  if (
    column === 'status' &&
    typeof value === 'string' &&
    TEXT_KEYS.includes(`assistant.status.${value}`)
  )
    return t(locale, `assistant.status.${value}`);
  if (column in REFERENCES && typeof value === 'string') return names.get(value) ?? value;
  if (column === 'private') return t(locale, value === 1 ? 'assistant.yes' : 'assistant.no');
  if (column === 'cycle_unit')
    return cycleText(String(value), Number(row.cycle_every ?? 1), locale);
  const text = String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function cycleText(unit: string, every: number, locale: Locale): string {
  const known = ['day', 'week', 'month', 'year'].includes(unit) ? unit : 'month';
  return every === 1
    ? t(locale, `assistant.cycle.${known}.one`)
    : t(locale, `assistant.cycle.${known}.other`, { n: every });
}

function describeRow(row: Row, names: Map<string, string>, locale: Locale): string {
  const name =
    typeof row.name === 'string'
      ? row.name
      : typeof row.subscription_id === 'string'
        ? (names.get(row.subscription_id) ?? '')
        : '';
  const details: string[] = [];
  if (typeof row.amount_minor === 'number')
    details.push(valueText(row, 'amount_minor', names, locale));
  if (typeof row.cycle_unit === 'string')
    details.push(
      t(locale, 'assistant.card.every', { cycle: valueText(row, 'cycle_unit', names, locale) }),
    );
  if (typeof row.due_date === 'string') details.push(valueText(row, 'due_date', names, locale));
  return [name, ...details].filter((s) => s !== '').join(' · ');
}

function linesOf(changes: readonly Change[], names: Map<string, string>, locale: Locale): string[] {
  const lines: string[] = [];
  const counts = new Map<string, { added: number; removed: number; changed: number }>();
  // A few charges are worth a line each (a charge marked paid); many are a count (a deleted subscription's).
  const chargeLines = changes.filter((c) => c.table === 'charges').length <= 2;
  // The subscription a change is about comes first, its records after it.
  const ordered = [...changes].sort(
    (a, b) => Number(b.table === 'subscriptions') - Number(a.table === 'subscriptions'),
  );
  for (const change of ordered) {
    const image = change.after ?? change.before;
    const named =
      image !== null &&
      (typeof image.name === 'string' || (change.table === 'charges' && chargeLines));
    if (!named) {
      const c = counts.get(change.table) ?? { added: 0, removed: 0, changed: 0 };
      if (change.before === null) c.added += 1;
      else if (change.after === null) c.removed += 1;
      else c.changed += 1;
      counts.set(change.table, c);
      continue;
    }
    const label = tableLabel(change.table, locale);
    if (change.before === null && change.after)
      lines.push(`➕ ${label}: ${describeRow(change.after, names, locale)}`);
    else if (change.after === null && change.before)
      lines.push(`🗑 ${label}: ${describeRow(change.before, names, locale)}`);
    else if (change.before && change.after) {
      const diffs: string[] = [];
      for (const column of Object.keys(change.after)) {
        if (QUIET.has(column) || change.before[column] === change.after[column]) continue;
        diffs.push(
          `${fieldLabel(column, locale)} ${valueText(change.before, column, names, locale)} → ${valueText(change.after, column, names, locale)}`,
        );
      }
      if (diffs.length > 0)
        lines.push(`✏️ ${describeRow(change.after, names, locale) || label}: ${diffs.join(', ')}`);
    }
  }
  // Records without a name are counted in words ("Tags: 3 added, 1 removed").
  for (const [table, c] of counts) {
    const parts = (['added', 'removed', 'changed'] as const)
      .filter((kind) => c[kind] > 0)
      .map((kind) =>
        t(locale, `assistant.card.count.${kind}.${c[kind] === 1 ? 'one' : 'other'}`, {
          count: c[kind],
        }),
      );
    lines.push(`${tableLabel(table, locale)}: ${parts.join(', ')}`);
  }
  if (lines.length > MAX_LINES)
    return [
      ...lines.slice(0, MAX_LINES),
      t(locale, 'assistant.card.more', { count: lines.length - MAX_LINES }),
    ];
  return lines;
}
