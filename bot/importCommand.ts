import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';

import { type Actor, t, withReadProgress } from '../core/index.ts';
import { cycleText, formatDate, money, readStepText } from '../core/chat/index.ts';
import { askChoice } from './importChoice.ts';
import type { AppCore } from './runtime.ts';

/**
 * `exhale import FILE`: a statement read by read_statement, shown as the chat's review is (the
 * period, count and sum, the candidates numbered, each with why it looks like one and ❔ when its
 * cycle is a guess, the tracked and absent ones marked), then
 * imported by import_candidates once the person chose: at the prompt, or with `--all` (every new
 * one). `--dry-run` shows what would be imported and writes nothing. Exit codes: 0 done (or
 * nothing to do), 2 what the person can fix (unreadable file, imported before), 1 our failure.
 */

export interface ImportOptions {
  core: AppCore;
  actor: Actor;
  path: string;
  /** The statement's currency when the file does not say it (`--currency`); else the household's. */
  currency?: string | undefined;
  all: boolean;
  dryRun: boolean;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /**
   * A terminal to show the reading's progress on, one line rewritten in place ("Reading page 2 of
   * 3…"), cleared before the review is printed; none when the output is not a terminal.
   */
  status?: NodeJS.WritableStream | undefined;
}

/** A file the command cannot open: told as a sentence, exit code 2. */
export class ImportFileError extends Error {}

interface Shown {
  n: number | null;
  id: string;
  /** Ticked at first: read_statement's `preselected`, the rule every surface follows. */
  ticked: boolean;
}

/** The person's answer at a prompt: the input's first line, or null when it ended first. */
export async function firstLine(input: NodeJS.ReadableStream): Promise<string | null> {
  const lines = createInterface({ input, terminal: false });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return null;
}

/** A statement file as the statement ops take it; one it cannot open is an ImportFileError. */
export async function statementFile(
  path: string,
  locale: Actor['locale'],
  currency?: string,
): Promise<{ file_name: string; content: string; encoding: 'base64'; currency?: string }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ImportFileError(t(locale, 'chat.terminal.file_unreadable', { path, reason }));
  }
  return {
    file_name: basename(path),
    content: bytes.toString('base64'),
    encoding: 'base64',
    ...(currency === undefined ? {} : { currency: currency.trim().toUpperCase() }),
  };
}

export async function runImport(o: ImportOptions): Promise<number> {
  const locale = o.actor.locale;
  const say = (line = ''): void => void o.output.write(`${line}\n`);
  const tr = (key: string, params?: Record<string, string | number>): string =>
    t(locale, key, params);
  const file = await statementFile(o.path, locale, o.currency);
  let statusLine = '';
  const status = (line: string): void => {
    if (!o.status || line === statusLine) return;
    // Back to the line's start, the new text, and the rest of a longer old one blanked.
    // (Lengths in code units: an emoji is two columns, hence the margin of two.)
    o.status.write(`\r${line}${' '.repeat(Math.max(0, statusLine.length + 2 - line.length))}`);
    statusLine = line;
  };
  let summary;
  try {
    ({ output: summary } = await withReadProgress(
      (step) => status(`⏳ ${readStepText(locale, step)}`),
      () => o.core.invoke('read_statement', o.actor, file, { surface: 'cli' }),
    ));
  } finally {
    if (statusLine !== '') o.status?.write(`\r${' '.repeat(statusLine.length + 2)}\r`);
  }
  const tx = summary.transactions;
  say(`📄 ${file.file_name}`);
  if (tx.first_date && tx.last_date)
    say(
      tr('chat.statements.period', {
        from: formatDate(tx.first_date, locale),
        to: formatDate(tx.last_date, locale),
      }),
    );
  say(
    tr(tx.count === 1 ? 'chat.statements.count_one' : 'chat.statements.count', {
      count: tx.count,
      sum: money(tx.sum, tx.currency, locale),
    }),
  );
  const unreadable = summary.skipped.unreadable;
  if (unreadable > 0)
    say(
      tr(unreadable === 1 ? 'chat.statements.unreadable_one' : 'chat.statements.unreadable', {
        count: unreadable,
      }),
    );
  if (summary.imported_before) {
    say(
      tr('errors.statements.imported_before', {
        date: formatDate(summary.imported_before.slice(0, 10), locale),
      }),
    );
    return 2;
  }
  if (summary.candidates.length === 0) {
    say(`${tr('chat.statements.none_found')} ${tr('statementHints.none_found')}`);
    return 0;
  }
  say(tr('chat.statements.found', { count: summary.candidates.length }));
  const shown: Shown[] = [];
  let n = 0;
  for (const c of summary.candidates) {
    const label = `${c.name} ${money(c.amount, c.currency, locale)} · ${cycleText(c.cycle, locale)}`;
    if (c.tracked && !c.tracked.price_differs) {
      say(`  [-] ${tr('chat.statements.tracked', { name: label })}`);
      shown.push({ n: null, id: c.id, ticked: false });
      continue;
    }
    n += 1;
    const text = c.tracked
      ? tr('chat.statements.price_differs', {
          name: c.name,
          tracked: c.tracked.name,
          old: money(c.tracked.amount, c.currency, locale),
          new: money(c.amount, c.currency, locale),
          cycle: cycleText(c.cycle, locale),
        })
      : label;
    say(`  [${n}] ${c.preselected ? '✅' : '⬜'} ${text}${c.cycle_guessed ? ' ❔' : ''}`);
    // Why it looks like one: for a guessed cycle, the "seen once, check its cycle" to read first.
    say(`        ${c.why}`);
    shown.push({ n, id: c.id, ticked: c.preselected });
  }
  if (summary.absent.length > 0) {
    say(tr('chat.statements.absent_title'));
    for (const a of summary.absent) {
      const count = a.expected_on.length;
      say(
        `  • ${tr(count === 1 ? 'chat.statements.absent_one' : 'chat.statements.absent', { name: a.name, amount: money(a.amount, a.currency, locale), count })}`,
      );
    }
  }
  say();
  const ticked = shown.filter((s) => s.ticked).map((s) => s.id);
  let chosen: string[];
  if (o.all || o.dryRun) chosen = ticked;
  else {
    const numbers = shown.flatMap((s) => (s.n === null ? [] : [s.n]));
    const choice = await askChoice(o.input, o.output, numbers, tr('cli.import.prompt'), (answer) =>
      tr('statementHints.cli.bad_choice', { answer, max: Math.max(1, ...numbers) }),
    );
    if (choice === null) o.output.write('\n');
    if (choice === null || choice.kind === 'none') chosen = [];
    else if (choice.kind === 'ticked') chosen = ticked;
    else {
      const picked = choice.numbers;
      chosen = shown.filter((s) => s.n !== null && picked.includes(s.n)).map((s) => s.id);
    }
  }
  if (chosen.length === 0) {
    say(tr('cli.import.nothing'));
    return 0;
  }
  const result = await o.core.invoke(
    'import_candidates',
    o.actor,
    { ...file, candidates: chosen },
    { surface: 'cli', dryRun: o.dryRun },
  );
  const done = result.output;
  for (const item of done.items)
    say(tr(`chat.statements.result.${item.result}`, { name: item.name }));
  if (o.dryRun) {
    say(tr('cli.import.dry_run', { count: done.created + done.price_changed }));
    return 0;
  }
  say(
    tr('chat.statements.imported', {
      count: done.created + done.price_changed,
      file: file.file_name,
    }),
  );
  if (result.auditId) say(tr('cli.import.undo', { id: result.auditId }));
  return 0;
}
