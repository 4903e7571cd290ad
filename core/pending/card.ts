import type { Knex } from 'knex';
import { z } from 'zod';

import { formatAmount, NO_CURRENCY } from '../domain/money.ts';
import { browserName } from '../domain/userAgents.ts';
import { formatDate, formatInstant } from '../i18n/dates.ts';
import { catalogFor, type Locale, t, TEXT_KEYS } from '../i18n/index.ts';
import { decimal, money } from '../i18n/numbers.ts';
import type { AnyOp } from '../kernel/op.ts';
import type { Change, Row } from '../store/tracked.ts';

/**
 * The card of a pending change, written by Exhale from the dry run (the op, its output, the rows it
 * would change): never from a model's words. Values shown are what the database would hold. This is
 * the one writer of such cards: MCP previews, the assistant's cards and every later surface show it.
 * Every column a change writes is shown by a line, but bookkeeping (`QUIET`): a person confirms
 * nothing they cannot see (test/core/pending/card.test.ts walks every write op's fields). The title
 * and each line name a record as it is now, before the change; what changes is in the lines.
 */
export const CardSchema = z.object({
  title: z.string(),
  lines: z.array(z.string()),
  destructive: z.boolean(),
});
export type Card = z.infer<typeof CardSchema>;

const MAX_LINES = 8;
/** Bookkeeping: columns that change with everything and say nothing to a person. No other column is left out. */
const QUIET = new Set(['id', 'household_id', 'created_at', 'updated_at', 'recorded_at']);
/** A cycle is one value in two columns: its unit and how many ("every 2 months"). */
const CYCLE_COLUMNS = new Set(['cycle_unit', 'cycle_every']);
const REFERENCES: Record<string, string> = {
  category_id: 'categories',
  payment_method_id: 'payment_methods',
  member_id: 'members',
  subscription_id: 'subscriptions',
  tag_id: 'tags',
};
/**
 * Records a subscription holds as a set: its tags and its cost shares. A change to one is shown as
 * the whole set before and after ("cost shares Ana 50% · Ben 50% → Ana 60% · Ben 40%"), never as
 * rows added and removed; the field's label is `assistant.field.<value>`.
 */
const SETS = { subscription_tags: 'tags', subscription_shares: 'shares' } as const;
type SetTable = keyof typeof SETS;
const isSetTable = (table: string): table is SetTable => table in SETS;

/** A calendar date as stored (`YYYY-MM-DD`): shown in the reader's format. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** An instant as stored (a UTC ISO string): shown as its day and time in the household's time zone. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

const KNOWN = new Set(TEXT_KEYS);

/** Who reads a card (their language, their household's time zone) and the names its records' references go by. */
interface Reader {
  locale: Locale;
  timeZone: string;
  names: Map<string, string>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * Writes the card of a change from its dry run, in the reader's language, its instants in the
 * household's `timeZone` (UTC for a newcomer, who has none yet).
 */
export async function previewCard(
  db: Knex,
  op: AnyOp,
  output: unknown,
  changes: readonly Change[],
  locale: Locale,
  timeZone = 'UTC',
): Promise<Card> {
  const destructive =
    op.effect === 'destructive' ||
    changes.some((c) => c.after === null && c.table === 'subscriptions');
  const sets = await currentSets(db, changes);
  const names = await referenceNames(
    db,
    changes,
    [...sets.values()].flatMap((s) => s.rows),
  );
  return {
    title: titleOf(op, output, changes, locale),
    lines: linesOf(changes, sets, { locale, timeZone, names }).map(oneLine),
    destructive,
  };
}

/**
 * What a change is about, named as it is now: a rename's card names the record by the name it has
 * (the new one is a line), whatever name the caller (a model) chose.
 */
function subjectName(output: unknown, changes: readonly Change[]): string | null {
  const nameNow = (record: Obj): string | null => {
    if (typeof record.id === 'string') {
      const before = changes.find((c) => c.id === record.id)?.before;
      if (before && typeof before.name === 'string') return before.name;
    }
    return str(record.name);
  };
  if (isObj(output)) {
    const own = nameNow(output);
    if (own !== null) return own;
    // `client_name`: the app a connect or disconnect is about ("Disconnect Claude.ai?").
    for (const key of ['subscription_name', 'client_name'])
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
      const name = isObj(inner) ? nameNow(inner) : null;
      if (name !== null) return name;
    }
  }
  const named = (c: Change | undefined): string | null => str((c?.before ?? c?.after)?.name);
  // A removal is about what it removes ("Remove Luis from the household?"), not what it moves.
  for (const c of changes) if (c.after === null && named(c) !== null) return named(c);
  return named(changes.find((c) => c.table === 'subscriptions') ?? changes[0]);
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
    const key = count === 1 && KNOWN.has(`${specific}_one`) ? `${specific}_one` : specific;
    return t(locale, key, params);
  }
  const unnamed = `assistant.propose.unnamed.${base}`;
  if (KNOWN.has(unnamed)) return t(locale, unnamed);
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

/** The set (tags or shares) of one subscription a change touches, as it is now in the database. */
interface CurrentSet {
  table: SetTable;
  subscriptionId: string;
  rows: Row[];
}

/** Subscriptions the change adds (`before` null) or removes (`after` null), whole. */
function wholeSubscriptions(changes: readonly Change[], side: 'added' | 'removed'): Set<string> {
  return new Set(
    changes
      .filter(
        (c) =>
          c.table === 'subscriptions' && (side === 'added' ? c.before === null : c.after === null),
      )
      .map((c) => c.id),
  );
}

/**
 * The sets whose rows the change adds, removes or changes, read before it is applied (a dry run
 * leaves the database as it was). A removed subscription's sets go with it and are only counted.
 */
async function currentSets(db: Knex, changes: readonly Change[]): Promise<Map<string, CurrentSet>> {
  const removed = wholeSubscriptions(changes, 'removed');
  const sets = new Map<string, CurrentSet>();
  for (const change of changes) {
    const image = change.after ?? change.before;
    const subscriptionId = str(image?.subscription_id);
    if (!isSetTable(change.table) || subscriptionId === null || removed.has(subscriptionId))
      continue;
    const key = `${change.table}:${subscriptionId}`;
    if (sets.has(key)) continue;
    const rows = (await db(change.table).where({ subscription_id: subscriptionId })) as Row[];
    sets.set(key, { table: change.table, subscriptionId, rows });
  }
  return sets;
}

async function referenceNames(
  db: Knex,
  changes: readonly Change[],
  others: readonly Row[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  // As it is now: a subscription renamed by this change is named by the name it has.
  for (const change of changes) {
    const row = change.before ?? change.after;
    if (row && typeof row.name === 'string') names.set(change.id, row.name);
  }
  const wanted = new Map<string, Set<string>>();
  const images = [...changes.flatMap((c) => [c.before, c.after]), ...others];
  for (const image of images) {
    if (!image) continue;
    for (const [column, table] of Object.entries(REFERENCES)) {
      const id = image[column];
      if (typeof id === 'string' && !names.has(id))
        (wanted.get(table) ?? wanted.set(table, new Set()).get(table))?.add(id);
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
  return KNOWN.has(key) ? t(locale, key) : table;
}

function fieldLabel(column: string, locale: Locale): string {
  const key = `assistant.field.${column}`;
  return KNOWN.has(key) ? t(locale, key) : column.replace(/_/g, ' ');
}

function valueText(row: Row, column: string, reader: Reader): string {
  const { names, locale } = reader;
  const value = row[column];
  if (value === null || value === undefined || value === '') return '—';
  if (column.endsWith('_minor') && typeof value === 'number') {
    const currency = typeof row.currency === 'string' ? row.currency : '';
    const amount = formatAmount(value, currency || NO_CURRENCY);
    return currency ? money(amount, currency, locale) : amount;
  }
  if (typeof value === 'string' && ISO_DATE.test(value)) return formatDate(value, locale);
  if (typeof value === 'string' && ISO_INSTANT.test(value))
    return formatInstant(value, locale, reader.timeZone);
  if (column === 'status' && KNOWN.has(`assistant.status.${String(value)}`))
    return t(locale, `assistant.status.${String(value)}`);
  if ((column === 'language' || column === 'locale') && KNOWN.has(`chat.language.${String(value)}`))
    return t(locale, `chat.language.${String(value)}`);
  // A value of a closed set (a payment method's kind, a member's role) in the reader's words.
  if (KNOWN.has(`assistant.value.${column}.${String(value)}`))
    return t(locale, `assistant.value.${column}.${String(value)}`);
  if (column in REFERENCES && typeof value === 'string') return names.get(value) ?? value;
  if (column === 'private') return t(locale, value === 1 ? 'assistant.yes' : 'assistant.no');
  if (column === 'cycle_unit')
    return cycleText(String(value), Number(row.cycle_every ?? 1), locale);
  if (column === 'reminder_offsets' && typeof value === 'string') return listText(value);
  if (typeof value === 'number') return decimal(String(value), locale);
  const text = String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** A JSON list as stored ("[7,1]") as a person reads it ("7, 1"). */
function listText(json: string): string {
  try {
    const list: unknown = JSON.parse(json);
    return Array.isArray(list) && list.length > 0 ? list.map(String).join(', ') : '—';
  } catch {
    return json;
  }
}

function cycleText(unit: string, every: number, locale: Locale): string {
  const known = ['day', 'week', 'month', 'year'].includes(unit) ? unit : 'month';
  return every === 1
    ? t(locale, `assistant.cycle.${known}.one`)
    : t(locale, `assistant.cycle.${known}.other`, { n: every });
}

/** "every 2 months": a row's cycle, unit and count together. */
function everyText(row: Row, reader: Reader): string {
  return t(reader.locale, 'assistant.card.every', { cycle: valueText(row, 'cycle_unit', reader) });
}

/** An exchange rate as a person reads it: "1 EUR = 1.0939 USD · Mon, 2 Mar 2026". */
function rateText(row: Row, locale: Locale): string {
  return t(locale, 'assistant.card.rate', {
    rate: decimal(String(row.per_eur), locale),
    currency: String(row.currency),
    date: typeof row.date === 'string' ? formatDate(row.date, locale) : '',
  });
}

/**
 * What a person calls a record that has no `name` column: a connected app by its app, a browser
 * signed in by what its User-Agent says ("Chrome on Linux"), a statement read by its file. Null
 * when the record has none (a count, or its table's label, stands for it).
 */
function recordName(row: Row, table: string, locale: Locale): string | null {
  if (typeof row.name === 'string') return row.name;
  if (table === 'oauth_grants') return str(row.client_name);
  if (table === 'web_sessions') return browserName(locale, str(row.user_agent));
  if (table === 'statement_imports') return str(row.file_name);
  return null;
}

/** Tables whose records a card names by `recordName` rather than counts. */
const NAMED_TABLES = new Set(['oauth_grants', 'web_sessions', 'statement_imports']);

/**
 * Which record a line is about: its name, a charge by its subscription and day, a rate by its
 * currency and day; empty when nothing names it (the line then names its table).
 */
function identity(row: Row, table: string, reader: Reader): string {
  const own = recordName(row, table, reader.locale);
  if (own !== null) return own;
  if (table === 'fx_rates')
    return [String(row.currency), valueText(row, 'date', reader)].join(' · ');
  const subscription =
    typeof row.subscription_id === 'string' ? (reader.names.get(row.subscription_id) ?? '') : '';
  const day = typeof row.due_date === 'string' ? valueText(row, 'due_date', reader) : '';
  return [subscription, day].filter((s) => s !== '').join(' · ');
}

/** A record added or removed, whole: its name and what it costs, how often, when. */
function describeRow(row: Row, table: string, reader: Reader): string {
  if (table === 'fx_rates') return rateText(row, reader.locale);
  const name =
    recordName(row, table, reader.locale) ??
    (typeof row.subscription_id === 'string' ? (reader.names.get(row.subscription_id) ?? '') : '');
  const details: string[] = [];
  if (typeof row.amount_minor === 'number') details.push(valueText(row, 'amount_minor', reader));
  if (typeof row.cycle_unit === 'string') details.push(everyText(row, reader));
  if (typeof row.due_date === 'string') details.push(valueText(row, 'due_date', reader));
  return [name, ...details].filter((s) => s !== '').join(' · ');
}

/**
 * What an update changes, column by column ("amount 7.99 EUR → 7.99 USD, currency EUR → USD"):
 * every column but bookkeeping. A cycle is one value; an amount is shown when its currency changes
 * even if its number does not.
 */
function diffsOf(before: Row, after: Row, reader: Reader): string[] {
  const { locale } = reader;
  const diffs: string[] = [];
  const currencyChanged = 'currency' in after && before.currency !== after.currency;
  const cycleChanged = [...CYCLE_COLUMNS].some((c) => c in after && before[c] !== after[c]);
  let cycleShown = false;
  for (const column of Object.keys(after)) {
    if (QUIET.has(column)) continue;
    if (CYCLE_COLUMNS.has(column)) {
      if (!cycleChanged || cycleShown) continue;
      cycleShown = true;
      diffs.push(
        `${fieldLabel('cycle_unit', locale)} ${everyText(before, reader)} → ${everyText(after, reader)}`,
      );
      continue;
    }
    const restated = column.endsWith('_minor') && currencyChanged;
    if (before[column] === after[column] && !restated) continue;
    diffs.push(
      `${fieldLabel(column, locale)} ${valueText(before, column, reader)} → ${valueText(after, column, reader)}`,
    );
  }
  return diffs;
}

/** A set as a person reads it: tags by name, shares by member and percent, the largest first. */
function setText(
  table: SetTable,
  rows: readonly Row[],
  names: Map<string, string>,
  locale: Locale,
): string {
  if (rows.length === 0) return '—';
  const nameOf = (id: unknown): string => (typeof id === 'string' ? (names.get(id) ?? id) : '?');
  if (table === 'subscription_tags')
    return rows
      .map((r) => nameOf(r.tag_id))
      .sort((a, b) => a.localeCompare(b))
      .join(', ');
  return [...rows]
    .sort(
      (a, b) =>
        Number(b.share_bp) - Number(a.share_bp) ||
        nameOf(a.member_id).localeCompare(nameOf(b.member_id)),
    )
    .map((r) => {
      const percent = (Number(r.share_bp) / 100).toFixed(2).replace(/\.?0+$/, '');
      return `${nameOf(r.member_id)} ${decimal(percent, locale)}%`;
    })
    .join(' · ');
}

/** The lines of the sets a change touches: before → after, or what a new subscription starts with. */
function setLines(
  changes: readonly Change[],
  sets: Map<string, CurrentSet>,
  names: Map<string, string>,
  locale: Locale,
): string[] {
  const added = wholeSubscriptions(changes, 'added');
  const lines: string[] = [];
  for (const set of sets.values()) {
    const rows = new Map(set.rows.map((r) => [String(r.id), r]));
    for (const c of changes) {
      const image = c.after ?? c.before;
      if (c.table !== set.table || image?.subscription_id !== set.subscriptionId) continue;
      if (c.after) rows.set(c.id, c.after);
      else rows.delete(c.id);
    }
    const before = setText(set.table, set.rows, names, locale);
    const after = setText(set.table, [...rows.values()], names, locale);
    if (before === after) continue;
    const subject = names.get(set.subscriptionId) ?? tableLabel('subscriptions', locale);
    const label = fieldLabel(SETS[set.table], locale);
    lines.push(
      added.has(set.subscriptionId)
        ? `➕ ${subject}: ${label} ${after}`
        : `✏️ ${subject}: ${label} ${before} → ${after}`,
    );
  }
  return lines;
}

function linesOf(
  changes: readonly Change[],
  sets: Map<string, CurrentSet>,
  reader: Reader,
): string[] {
  const { names, locale } = reader;
  // A dry run that writes nothing: said, so a card is never blank.
  if (changes.length === 0) return [t(locale, 'assistant.card.nothing')];
  const lines: string[] = [];
  const counts = new Map<string, { added: number; removed: number; changed: number }>();
  // A subscription added or removed whole: its charges, tags and shares come and go with it, counted.
  const whole = new Set([
    ...wholeSubscriptions(changes, 'added'),
    ...wholeSubscriptions(changes, 'removed'),
  ]);
  // The subscription a change is about comes first, its records after it.
  const ordered = [...changes].sort(
    (a, b) => Number(b.table === 'subscriptions') - Number(a.table === 'subscriptions'),
  );
  for (const change of ordered) {
    const image = change.after ?? change.before;
    if (!image) continue;
    const subscriptionId = str(image.subscription_id);
    const ofWhole = subscriptionId !== null && whole.has(subscriptionId);
    // Shown as a set, before and after (setLines), unless it goes with its subscription.
    if (isSetTable(change.table) && sets.has(`${change.table}:${subscriptionId ?? ''}`)) continue;
    const own =
      typeof image.name === 'string' ||
      NAMED_TABLES.has(change.table) ||
      change.table === 'fx_rates' ||
      (change.table === 'charges' && !ofWhole);
    if (!own) {
      const c = counts.get(change.table) ?? { added: 0, removed: 0, changed: 0 };
      if (change.before === null) c.added += 1;
      else if (change.after === null) c.removed += 1;
      else c.changed += 1;
      counts.set(change.table, c);
      continue;
    }
    const label = tableLabel(change.table, locale);
    if (change.before === null && change.after)
      lines.push(`➕ ${label}: ${describeRow(change.after, change.table, reader)}`);
    else if (change.after === null && change.before)
      lines.push(`🗑 ${label}: ${describeRow(change.before, change.table, reader)}`);
    else if (change.before && change.after) {
      const diffs = diffsOf(change.before, change.after, reader);
      if (diffs.length > 0)
        lines.push(
          `✏️ ${identity(change.before, change.table, reader) || label}: ${diffs.join(', ')}`,
        );
    }
  }
  lines.push(...setLines(changes, sets, names, locale));
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
