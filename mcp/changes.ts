import { type Change, formatAmount, type Row } from '../core/index.ts';

/** Bookkeeping columns that change with everything and tell a person nothing. */
const QUIET = new Set(['updated_at', 'created_at', 'recorded_at', 'household_id', 'id']);
const MAX_LINES = 12;

function label(change: Change): string {
  const row = change.after ?? change.before;
  const name = row && typeof row.name === 'string' ? ` "${row.name}"` : '';
  return `${change.table} ${change.id}${name}`;
}

/** Money columns (`amount_minor`) read as the decimal amounts a person knows: `amount: 15.99 → 17.99 EUR`. */
function shown(key: string, value: string | number | null, row: Row): string {
  if (key.endsWith('_minor') && typeof value === 'number' && typeof row.currency === 'string')
    return formatAmount(value, row.currency);
  return String(value);
}

function fieldDiff(change: Change): string {
  if (!change.before || !change.after) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(change.after)) {
    if (QUIET.has(key)) continue;
    const old = change.before[key] ?? null;
    if (old === value) continue;
    const money = key.endsWith('_minor') && typeof change.after.currency === 'string';
    const name = money ? key.slice(0, -'_minor'.length) : key;
    const unit = money ? ` ${String(change.after.currency)}` : '';
    parts.push(
      `${name}: ${shown(key, old, change.before)} → ${shown(key, value, change.after)}${unit}`,
    );
  }
  return parts.length > 0 ? `: ${parts.join(', ')}` : '';
}

/** The rows a dry run would touch, one line each, for a person to check before confirming. */
export function describeChanges(changes: readonly Change[]): string[] {
  const lines = changes.slice(0, MAX_LINES).map((change) => {
    const verb = change.before === null ? '+' : change.after === null ? '−' : '~';
    return `${verb} ${label(change)}${fieldDiff(change)}`;
  });
  if (changes.length > MAX_LINES) lines.push(`… ${changes.length - MAX_LINES} more`);
  return lines;
}
