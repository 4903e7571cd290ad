import { copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

import { loadConfig } from './config.ts';
import { backupSqlite, inspectSqliteFile, sqliteInUse } from '../core/index.ts';

/** PostgreSQL is backed up by its own tools, which copy a live database consistently. */
const USE_PG_DUMP =
  'Exhale uses PostgreSQL here (EXHALE_DATABASE_URL): back it up with pg_dump --format=custom "$EXHALE_DATABASE_URL" --file exhale.dump, and restore with pg_restore --clean --dbname "$EXHALE_DATABASE_URL" exhale.dump (see docs/deploy.md).';

function fileArgument(args: string[], command: string): string | null {
  const [file, ...extra] = args;
  if (!file || extra.length > 0 || file.startsWith('-')) {
    console.error(`Usage: exhale ${command} FILE`);
    return null;
  }
  return path.resolve(file);
}

/**
 * `exhale backup FILE`: a consistent copy of the SQLite database, while the server may be running
 * (VACUUM INTO). Exit 0 when written; 1 on PostgreSQL (pg_dump's job) or when FILE exists; 2 for
 * a wrong command line.
 */
export async function backupCommand(args: string[]): Promise<number> {
  const target = fileArgument(args, 'backup');
  if (target === null) return 2;
  const config = loadConfig();
  if (config.EXHALE_DATABASE_URL) {
    console.error(USE_PG_DUMP);
    return 1;
  }
  if (!existsSync(config.sqliteFile)) {
    console.error(`There is no Exhale database at ${config.sqliteFile} (check EXHALE_DATA_DIR).`);
    return 1;
  }
  if (existsSync(target)) {
    console.error(`${target} exists already; choose a new file name (a backup never overwrites).`);
    return 1;
  }
  await backupSqlite(config.sqliteFile, target);
  console.log(
    `Backed up ${config.sqliteFile} to ${target} (${statSync(target).size} bytes). Restore it with \`exhale restore ${args[0] ?? target}\`.`,
  );
  return 0;
}

/** `exhale.sqlite.bak-2026-12-01T10-40-00Z`: where a restore keeps the file it replaces. */
function asideName(file: string, now: Date): string {
  return `${file}.bak-${now.toISOString().slice(0, 19).replaceAll(':', '-')}Z`;
}

/**
 * `exhale restore FILE`: replaces the SQLite database with FILE, once it is known to be an
 * Exhale database no newer than this version and no process has the current one open; the
 * current file is kept beside it as `exhale.sqlite.bak-<time>`. Migrations, if FILE is older, run
 * at the next start. Exit 0 when restored, 1 when refused, 2 for a wrong command line.
 */
export async function restoreCommand(args: string[]): Promise<number> {
  const source = fileArgument(args, 'restore');
  if (source === null) return 2;
  const config = loadConfig();
  if (config.EXHALE_DATABASE_URL) {
    console.error(USE_PG_DUMP);
    return 1;
  }
  if (!existsSync(source)) {
    console.error(`There is no file ${source}.`);
    return 1;
  }
  const kind = await inspectSqliteFile(source);
  if (kind === 'not_exhale') {
    console.error(`${source} is not an Exhale database; nothing was changed.`);
    return 1;
  }
  if (kind === 'newer') {
    console.error(
      `${source} was written by a newer Exhale (it has migrations this version does not know); upgrade Exhale first. Nothing was changed.`,
    );
    return 1;
  }
  const target = config.sqliteFile;
  let aside: string | null = null;
  if (existsSync(target)) {
    if (await sqliteInUse(target)) {
      console.error(
        `The database ${target} is open in another process (a running exhale?). Stop it, then restore. Nothing was changed.`,
      );
      return 1;
    }
    aside = asideName(target, new Date());
    renameSync(target, aside);
  }
  // No -wal or -shm of the old file may be read as the new one's.
  for (const suffix of ['-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true });
  copyFileSync(source, target);
  console.log(
    `Restored ${target} from ${source}.${aside ? ` The database it replaced is kept as ${aside}.` : ''}`,
  );
  return 0;
}
