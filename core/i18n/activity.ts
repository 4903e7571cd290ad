import { formatDate } from './dates.ts';
import { decimal } from './numbers.ts';
import { type Locale, type Text, t, TEXT_KEYS } from './index.ts';

/**
 * What an activity line says: a text kept with its audit entry and rendered in each reader's
 * language. A line that acts on other entries (an undo) lists their lines in `items`; its text
 * takes them, each rendered in the same language, as the `{items}` placeholder. The items are
 * always the changes themselves, never other undo lines (see `undoneActivity` and the kernel's
 * `linkedTexts`): an undo reads "Undone: Ana's language back to Spanish", a redo "Redone: Changed
 * Ana's language to English", however long the chain of undos.
 */
export interface ActivityText extends Text {
  items?: ActivityText[];
}

/** The line of an entry recorded without a text (or with one that cannot be read): its stored words. */
const AS_RECORDED = 'activity.as_recorded';

export function renderActivity(locale: Locale, text: ActivityText): string {
  const params = counted(locale, text.key, localParams(locale, text.params));
  if (!text.items) return t(locale, text.key, params);
  const items = text.items.map((item) => renderActivity(locale, item)).join('; ');
  return t(locale, text.key, { ...params, items });
}

/**
 * Parameters as the reader reads them: a `date` (YYYY-MM-DD) written out in their language, an
 * `amount` ("9.99") with their decimal mark, a token `scope` in their words. Stored raw, so each reader gets their own.
 */
/**
 * The line of an entry as undone, in the reader's words: `<key>.undo` when the locales have one,
 * rendered with the entry's parameters and its first change's before-image as `before_<column>`
 * ("Ana's language back to Spanish"), else the entry's own line ("Added Netflix", under "Undone:").
 */
export function undoneActivity(row: StoredSummary & { changes: string }): ActivityText {
  const text = storedActivity(row);
  const key = `${text.key}.undo`;
  if (!TEXT_KEYS.includes(key)) return text;
  return { key, params: { ...text.params, ...beforeParams(row.changes) } };
}

/** The first change's before-image, its text and number columns as `before_<column>`. */
function beforeParams(changes: string): Record<string, string | number> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(changes);
  } catch {
    return {};
  }
  const first: unknown = Array.isArray(parsed) ? parsed[0] : undefined;
  const before: unknown =
    typeof first === 'object' && first !== null && 'before' in first ? first.before : undefined;
  if (typeof before !== 'object' || before === null) return {};
  const out: Record<string, string | number> = {};
  for (const [column, value] of Object.entries(before))
    if (typeof value === 'string' || typeof value === 'number') out[`before_${column}`] = value;
  return out;
}

/**
 * A count in words of its own plural: when the locales have `<key>.<param>.one` (and `.other`,
 * and `.zero` if nothing reads better as "no …"), the number `param` is replaced by that phrase,
 * so a line with two counts reads right for each ("Imported 1 subscription … (2 price changes)")
 * without a variant for every combination. Chosen when the line is read, so entries stored
 * before keep reading right too.
 */
function counted(
  locale: Locale,
  key: string,
  params: Record<string, string | number> | undefined,
): Record<string, string | number> | undefined {
  if (!params) return params;
  const out = { ...params };
  for (const [name, value] of Object.entries(params)) {
    if (typeof value !== 'number' || !TEXT_KEYS.includes(`${key}.${name}.one`)) continue;
    const zero = `${key}.${name}.zero`;
    const form =
      value === 0 && TEXT_KEYS.includes(zero)
        ? zero
        : `${key}.${name}.${value === 1 ? 'one' : 'other'}`;
    out[name] = t(locale, form, { [name]: value });
  }
  return out;
}

/** Parameters holding a language code: shown as the language's name in the reader's language. */
const LANGUAGE_PARAMS = ['language', 'before_language'] as const;

function localParams(
  locale: Locale,
  params: Record<string, string | number> | undefined,
): Record<string, string | number> | undefined {
  if (!params) return params;
  const out = { ...params };
  if (typeof out.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(out.date))
    out.date = formatDate(out.date, locale);
  if (typeof out.amount === 'string') out.amount = decimal(out.amount, locale);
  // An exchange rate ("1.0705") with the reader's decimal mark too: "1,0705".
  if (typeof out.rate === 'string') out.rate = decimal(out.rate, locale);
  if (typeof out.scope === 'string' && TEXT_KEYS.includes(`activity.scope.${out.scope}`))
    out.scope = t(locale, `activity.scope.${out.scope}`);
  for (const name of LANGUAGE_PARAMS) {
    const code = out[name];
    if (typeof code === 'string' && TEXT_KEYS.includes(`activity.language.${code}`))
      out[name] = t(locale, `activity.language.${code}`);
  }
  return out;
}

function isParams(value: unknown): value is Record<string, string | number> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number')
  );
}

function isActivityText(value: unknown): value is ActivityText {
  if (typeof value !== 'object' || value === null) return false;
  const { key, params, items } = value as Record<string, unknown>;
  return (
    typeof key === 'string' &&
    (params === undefined || isParams(params)) &&
    (items === undefined || (Array.isArray(items) && items.every(isActivityText)))
  );
}

/** An audit entry's line as stored: `summary_text` (JSON) when present, else the English `summary`. */
export interface StoredSummary {
  summary: string;
  summary_text: string | null;
}

export function storedActivity(row: StoredSummary): ActivityText {
  if (row.summary_text !== null) {
    try {
      const parsed: unknown = JSON.parse(row.summary_text);
      if (isActivityText(parsed)) return parsed;
    } catch {
      // Unreadable: the stored English words below still say what happened.
    }
  }
  return { key: AS_RECORDED, params: { summary: row.summary } };
}

/** An audit entry's line in the reader's language. */
export function renderSummary(locale: Locale, row: StoredSummary): string {
  return renderActivity(locale, storedActivity(row));
}
