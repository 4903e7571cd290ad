import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { catalogFor, LOCALES } from '../../../core/i18n/index.ts';
import { placeholdersOf, scanSource, scanTree } from '../../helpers/placeholders.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PLACEHOLDERS = placeholdersOf(LOCALES.map((l) => catalogFor(l)));

/**
 * No text reaches a reader with a placeholder left in it ("{changes}"): every call site that names
 * a text key passes each placeholder of its texts, in every language. Activity lines, whose
 * parameters come from each op's `summarize`, are rendered for every write op in
 * test/contract/dryRunAndUndo.test.ts.
 */
describe('text placeholders', () => {
  it('every call site of every surface passes each placeholder its texts use', () => {
    const scan = scanTree(ROOT, ['core', 'bot', 'mcp'], PLACEHOLDERS);
    expect(scan.findings).toEqual([]);
    // The scan really reads call sites (a broken scan would pass by finding none).
    expect(scan.checked).toBeGreaterThan(200);
  });

  it('fails on a call site that leaves a placeholder out, and only then', () => {
    const texts = placeholdersOf([{ 'mcp.confirm.ask': 'Apply {changes} by {who}?' }]);
    const bad = scanSource(
      'bad.ts',
      "new OpError('conflict', 'mcp.confirm.ask', { who });\nt(locale, 'mcp.confirm.ask');",
      texts,
    );
    expect(bad.findings).toEqual([
      { where: 'bad.ts:1', key: 'mcp.confirm.ask', missing: ['changes'] },
      { where: 'bad.ts:2', key: 'mcp.confirm.ask', missing: ['changes', 'who'] },
    ]);
    const good = scanSource(
      'good.ts',
      "turn.t('mcp.confirm.ask', { changes: list, who: name });",
      texts,
    );
    expect(good).toEqual({ findings: [], checked: 1, unread: 0 });
    // A turn's own texts get the channel's word for a group chat; nothing else does.
    const grouped = placeholdersOf([{ 'chat.link': 'Link this {group}' }]);
    const fromTurn = scanSource(
      'turn.ts',
      "turn.t('chat.link');\nt(locale, 'chat.link');",
      grouped,
    );
    expect(fromTurn.findings).toEqual([
      { where: 'turn.ts:2', key: 'chat.link', missing: ['group'] },
    ]);
  });
});
