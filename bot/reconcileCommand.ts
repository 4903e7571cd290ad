import { type Actor, t } from '../core/index.ts';
import { reconcileLines } from '../core/chat/index.ts';
import { firstLine, statementFile } from './importCommand.ts';
import type { AppCore } from './runtime.ts';

/**
 * `exhale import FILE --reconcile`: the statement reconciled by reconcile_statement against the
 * household's charges, printed as the chat's card is (matched, to review, missing, untracked),
 * then the matched charges marked paid by mark_charges_paid once the person says yes at the prompt,
 * or with `--all`. `--dry-run` shows what would be marked and writes nothing. Exit codes as
 * `exhale import`: 0 done (or nothing to do), 2 what the person can fix, 1 our failure.
 */

export interface ReconcileOptions {
  core: AppCore;
  actor: Actor;
  path: string;
  /** The statement's currency when the file does not say it (`--currency`). */
  currency?: string | undefined;
  all: boolean;
  dryRun: boolean;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

export async function runReconcile(o: ReconcileOptions): Promise<number> {
  const locale = o.actor.locale;
  const say = (line = ''): void => void o.output.write(`${line}\n`);
  const tr = (key: string, params?: Record<string, string | number>): string =>
    t(locale, key, params);
  const file = await statementFile(o.path, locale, o.currency);
  const { output } = await o.core.invoke('reconcile_statement', o.actor, file, { surface: 'cli' });
  say(tr('reconcile.chat.title', { file: file.file_name }));
  for (const line of reconcileLines(locale, output)) say(line);
  say();
  const count = output.to_mark.length;
  if (count === 0) return 0;
  if (!o.all && !o.dryRun) {
    o.output.write(`${tr('reconcile.cli.prompt', { count })} `);
    const answer = ((await firstLine(o.input)) ?? '').trim().toLowerCase();
    if (!['y', 'yes', 's', 'si', 'sí'].includes(answer)) {
      say(tr('reconcile.cli.nothing'));
      return 0;
    }
  }
  const result = await o.core.invoke(
    'mark_charges_paid',
    o.actor,
    { charges: output.to_mark },
    { surface: 'cli', dryRun: o.dryRun },
  );
  if (o.dryRun) {
    say(tr('reconcile.cli.dry_run', { count: result.output.count }));
    return 0;
  }
  say(tr('reconcile.chat.marked', { count: result.output.count }));
  if (result.auditId) say(tr('cli.import.undo', { id: result.auditId }));
  return 0;
}
