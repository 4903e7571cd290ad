import type { Knex } from 'knex';

import * as initial from './202611300001_initial.ts';
import * as reminders from './202611300002_reminders.ts';
import * as assistant from './202611300003_assistant.ts';
import * as pendingChanges from './202612010001_pending_changes.ts';
import * as memberIdentities from './202612010002_member_identities.ts';
import * as statementImports from './202612010003_statement_imports.ts';
import * as jobRuns from './202612010004_job_runs.ts';
import * as webAccess from './202612010005_web_access.ts';
import * as oauth from './202612010006_oauth.ts';
import * as oauthLimits from './202612010007_oauth_limits.ts';
import * as tokensExpiry from './202612010008_tokens_expiry.ts';
import * as signedButtons from './202612010009_signed_buttons.ts';
import * as oauthCodeSentTo from './202612010010_oauth_code_sent_to.ts';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Every migration in order. Add new ones at the end; never edit one that has shipped. */
const MIGRATIONS: ReadonlyArray<readonly [string, Migration]> = [
  ['202611300001_initial', initial],
  ['202611300002_reminders', reminders],
  ['202611300003_assistant', assistant],
  ['202612010001_pending_changes', pendingChanges],
  ['202612010002_member_identities', memberIdentities],
  ['202612010003_statement_imports', statementImports],
  ['202612010004_job_runs', jobRuns],
  ['202612010005_web_access', webAccess],
  ['202612010006_oauth', oauth],
  ['202612010007_oauth_limits', oauthLimits],
  ['202612010008_tokens_expiry', tokensExpiry],
  ['202612010009_signed_buttons', signedButtons],
  ['202612010010_oauth_code_sent_to', oauthCodeSentTo],
];

/** The names of the migrations this version knows, oldest first. */
export const MIGRATION_NAMES: readonly string[] = MIGRATIONS.map(([name]) => name);

/** A knex migration source over the list above, so migrations work the same from source and tests. */
export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => MIGRATIONS.map(([name]) => name),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const found = MIGRATIONS.find(([n]) => n === name);
    if (!found) throw new Error(`unknown migration ${name}`);
    return found[1];
  },
};
