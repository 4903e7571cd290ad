import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { backupCommand, restoreCommand } from './backup.ts';
import { ChannelConfigError } from './channelConfigError.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DEMO_NAME, loadDemoHousehold } from './demo.ts';
import { ImportFileError, runImport } from './importCommand.ts';
import { LocalActorError, resolveLocalActor } from './localActor.ts';
import { openRuntime, type Runtime } from './runtime.ts';
import { cliWebUrl } from './serverAddress.ts';
import { streamText } from './streamText.ts';
import {
  type Actor,
  authenticateToken,
  ChannelRegistry,
  createAssistant,
  findTimeZone,
  type Freshness,
  jsonTextTooDeep,
  type Locale,
  newcomerActor,
  OpError,
  overridesFromEnv,
  storeFailure,
  surfaceOps,
  tooDeep,
} from '../core/index.ts';

const USAGE = `Usage: exhale [command]

  exhale                      start Exhale (HTTP server, bots, scheduler)
  exhale init [options]       create a household and its owner
      --name NAME --currency EUR --time-zone Europe/Madrid --owner NAME [--language en|es]
  exhale demo                 load a realistic demo household
  exhale chat [--as MEMBER] [--household ID]
                              chat with Exhale in this terminal, as the local owner
  exhale ops                  list every op of the catalog
  exhale op NAME ['<json>' | @file.json | -] [--document FILE] [--dry-run] [--as MEMBER]
                              run any op and print its result as JSON; the input may come from a
                              file or stdin, and --document puts a file's text in its document
                              (exhale op import_data --document export.json)
  exhale import FILE [--all] [--dry-run] [--reconcile] [--currency CODE] [--as MEMBER] [--household ID]
                              read a bank statement (CSV, OFX/QFX, PDF) and import the
                              subscriptions in it: choose at the prompt, or --all for every new
                              one; --dry-run shows what would be imported and writes nothing;
                              --reconcile matches it to your charges and marks the matched paid;
                              --currency USD when the file does not say its currency
  exhale mcp [--token T] [--trusted] [--as MEMBER] [--household ID]
                              serve MCP over stdio, as the token's member (or EXHALE_TOKEN),
                              or as the local owner (writes need confirmation unless --trusted)
  exhale token create --scope read|write|trusted --name NAME [--expires-in-days N] [--as MEMBER] [--household ID]
  exhale token list | exhale token revoke ID
                              tokens for agents (only a hash is stored; the token is shown once)
  exhale web [--as MEMBER] [--household ID]
                              a sign-in link for the web app in a browser (works once, 10 minutes)
  exhale migrate              apply database migrations
  exhale backup FILE          a consistent copy of the SQLite database, also while Exhale runs
  exhale restore FILE         replace the SQLite database with a backup (Exhale stopped; the
                              current file is kept as exhale.sqlite.bak-<time>)
  exhale slack manifest [--socket]
                              the Slack app manifest to paste, with EXHALE_PUBLIC_URL filled in
                              (--socket: for Socket Mode, no public URL)
  exhale help                 this text

In the project folder run it as \`npx exhale …\` (a bare \`exhale\` needs \`npm link\` first).
Configuration is by environment variables (EXHALE_DATA_DIR, EXHALE_DATABASE_URL, EXHALE_PORT…): see README.md.`;

type Command = (args: string[]) => Promise<number>;

/** Why `exhale mcp` refuses a token, at start or later (it says so on stderr, the client's log). */
const TOKEN_REFUSED =
  'That token is not valid (unknown, revoked, expired, or its member left the household).';

/** A command line that cannot be run as typed: told with the usage, exit code 2. */
class UsageError extends Error {}

/** node:util parseArgs refusing an unknown option, a missing value or a stray argument. */
function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/** The language of the person at the keyboard: English until a command knows which member they are. */
let errorLocale: Locale = 'en';

/** The local member a command acts as; errors are then written in their language. */
async function localActor(...args: Parameters<typeof resolveLocalActor>): Promise<Actor> {
  const actor = await resolveLocalActor(...args);
  errorLocale = actor.locale;
  return actor;
}

/** Databases opened by one-shot commands: closed when the command ends, however it ends. */
const opened: Runtime[] = [];
async function runtimeFor(
  config: ReturnType<typeof loadConfig>,
  options: { existing?: boolean } = {},
): Promise<Runtime> {
  // Commands that act on a household never create a database: run from the wrong folder (an MCP
  // client's working directory), they would leave an empty exhale.sqlite behind and find nothing.
  if (options.existing && !config.EXHALE_DATABASE_URL && !existsSync(config.sqliteFile))
    throw new ConfigError(
      `There is no Exhale database at ${config.sqliteFile}. Set EXHALE_DATA_DIR to the folder that holds exhale.sqlite, or create one with \`npx exhale init\` or \`npx exhale demo\`.`,
    );
  const runtime = await openRuntime(config);
  opened.push(runtime);
  return runtime;
}

const commands: Record<string, Command> = {
  import: async (args) => {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        all: { type: 'boolean', default: false },
        'dry-run': { type: 'boolean', default: false },
        reconcile: { type: 'boolean', default: false },
        currency: { type: 'string' },
        as: { type: 'string' },
        household: { type: 'string' },
      },
    });
    const [path, ...extra] = positionals;
    if (!path) throw new UsageError('exhale import needs the statement file: exhale import FILE.');
    if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra.join(' ')}".`);
    const runtime = await runtimeFor(loadConfig(), { existing: true });
    try {
      const actor = await localActor(runtime.db, { as: values.as, household: values.household });
      if (values.reconcile) {
        const { runReconcile } = await import('./reconcileCommand.ts');
        return await runReconcile({
          core: runtime.core,
          actor,
          path,
          currency: values.currency,
          all: values.all,
          dryRun: values['dry-run'],
          input: process.stdin,
          output: process.stdout,
        });
      }
      return await runImport({
        core: runtime.core,
        actor,
        path,
        currency: values.currency,
        all: values.all,
        dryRun: values['dry-run'],
        input: process.stdin,
        output: process.stdout,
        status: process.stderr.isTTY ? process.stderr : undefined,
      });
    } finally {
      await runtime.close();
    }
  },
  // Backup and restore (bot/backup.ts).
  backup: backupCommand,
  restore: restoreCommand,
  // The Slack app manifest with this deployment's URL (bot/slack/manifest.ts).
  slack: async (args) => {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { socket: { type: 'boolean', default: false } },
    });
    if (positionals[0] !== 'manifest' || positionals.length > 1)
      throw new UsageError('Usage: exhale slack manifest [--socket].');
    const config = loadConfig();
    const socket = values.socket || config.EXHALE_SLACK_APP_TOKEN !== undefined;
    if (!socket && !config.EXHALE_PUBLIC_URL)
      throw new ConfigError(
        'Slack posts events to a public https URL: set EXHALE_PUBLIC_URL (such as https://exhale.example.com), or use Socket Mode with `exhale slack manifest --socket` and EXHALE_SLACK_APP_TOKEN.',
      );
    const { slackManifest } = await import('./slack/manifest.ts');
    console.log(slackManifest({ publicUrl: config.EXHALE_PUBLIC_URL, socket }));
    return 0;
  },
  // The server, the chat and MCP load grammY, the MCP SDK and the chat engine only when they run
  // (dynamic imports): `exhale op` and the other one-shot commands start without them.
  start: async () => {
    const { startExhale } = await import('./main.ts');
    await startExhale(loadConfig());
    return -1; // keeps running
  },
  help: async () => {
    console.log(USAGE);
    return 0;
  },
  migrate: async () => {
    const runtime = await runtimeFor(loadConfig());
    console.log(
      runtime.migrated.length === 0
        ? 'Database is up to date.'
        : `Applied ${runtime.migrated.length} migration(s): ${runtime.migrated.join(', ')}.`,
    );
    await runtime.close();
    return 0;
  },
  ops: async () => {
    const runtime = await runtimeFor(loadConfig());
    const onMcp = new Set(surfaceOps(runtime.core.catalog, 'mcp'));
    for (const op of runtime.core.catalog) {
      const hidden = onMcp.has(op) ? '' : '  (not on MCP)';
      console.log(
        `${op.name.padEnd(28)} ${op.effect.padEnd(11)} ${op.scope.padEnd(7)} ${op.title}${hidden}`,
      );
    }
    await runtime.close();
    return 0;
  },
  init: async (args) => {
    const { values } = parseArgs({
      args,
      options: {
        name: { type: 'string' },
        currency: { type: 'string' },
        'time-zone': { type: 'string' },
        owner: { type: 'string' },
        language: { type: 'string', default: 'en' },
      },
    });
    const missing = (['name', 'currency', 'time-zone', 'owner'] as const).filter((k) => !values[k]);
    if (missing.length > 0) {
      console.error(
        `exhale init needs ${missing.map((m) => `--${m}`).join(', ')}.\nExample: npx exhale init --name "Casa" --currency EUR --time-zone Europe/Madrid --owner Ana`,
      );
      return 2;
    }
    // Refusals are written whole in the household's language, lead and reason alike.
    const language: Locale = values.language === 'es' ? 'es' : 'en';
    errorLocale = language;
    // A city names its zone, as onboarding in chat accepts ("Madrid" is Europe/Madrid).
    const typedZone = values['time-zone'] ?? '';
    const timeZone = findTimeZone(typedZone) ?? typedZone;
    const runtime = await runtimeFor(loadConfig());
    try {
      const { output } = await runtime.core.invoke(
        'create_household',
        newcomerActor('cli', language),
        {
          name: values.name,
          currency: values.currency,
          time_zone: timeZone,
          language: values.language,
          owner_name: values.owner,
        },
      );
      console.log(
        `Created household "${output.household.name}" (${output.household.id}) with owner ${output.member.name}.`,
      );
      console.log(
        'Next: `npm start` (or `npx exhale`) to run it, `npx exhale op list_subscriptions` to try an op.',
      );
      return 0;
    } finally {
      await runtime.close();
    }
  },
  demo: async () => {
    const runtime = await runtimeFor(loadConfig());
    try {
      const existing = (await runtime.db
        .knex('households')
        .where({ name: DEMO_NAME })
        .first('id')) as { id: string } | undefined;
      if (existing) {
        console.error(
          `The demo household is already loaded (${existing.id}). Use it, or set EXHALE_DATA_DIR to a fresh directory for another.`,
        );
        return 2;
      }
      const result = await loadDemoHousehold(runtime.core);
      console.log(
        `Loaded the demo household "${result.name}" (${result.householdId}): ${result.subscriptions} subscriptions, ${result.members} members.`,
      );
      return 0;
    } finally {
      await runtime.close();
    }
  },
  chat: async (args) => {
    const { values } = parseArgs({
      args,
      options: { as: { type: 'string' }, household: { type: 'string' } },
    });
    const config = loadConfig();
    const runtime = await runtimeFor(config, { existing: true });
    try {
      const actor = await localActor(runtime.db, {
        as: values.as,
        household: values.household,
        channel: 'terminal',
      });
      // The person reads a failure as a sentence in the chat; the log keeps one line of it, not
      // a stack trace in the middle of the conversation, and never inside an answer being printed.
      const [{ chatLog }, { startChannelWork }, { runTerminalChat }] = await Promise.all([
        import('./terminal/log.ts'),
        import('./channels.ts'),
        import('./terminal/index.ts'),
      ]);
      const logs = chatLog(process.stderr);
      const log = logs.log;
      // This process's only channel is the session itself: reminders and agent notices for the
      // member at the keyboard are printed in it while it is open.
      const channels = new ChannelRegistry(runtime.db, log);
      const work = startChannelWork(runtime.core, channels, log);
      try {
        await runTerminalChat({
          core: runtime.core,
          actor,
          input: process.stdin,
          output: process.stdout,
          miniAppUrl: config.EXHALE_MINIAPP_URL,
          webUrl: await cliWebUrl(config),
          assistant: createAssistant({ core: runtime.core, config: overridesFromEnv(), log }),
          channels,
          logs,
        });
      } finally {
        work.stop();
        await channels.stop();
      }
      return 0;
    } finally {
      await runtime.close();
    }
  },
  mcp: async (args) => {
    const { values } = parseArgs({
      args,
      options: {
        token: { type: 'string' },
        trusted: { type: 'boolean', default: false },
        as: { type: 'string' },
        household: { type: 'string' },
      },
    });
    const runtime = await runtimeFor(loadConfig(), { existing: true });
    const raw = values.token ?? process.env.EXHALE_TOKEN;
    const { core } = runtime;
    let actor: Actor;
    // A token is checked again on every request, as over HTTP: revoked, expired or its member
    // gone, it is refused from the next request on, and the server ends.
    let recheck: ((fresh: Freshness) => Promise<Actor | null>) | undefined;
    if (raw) {
      const agent = await authenticateToken(runtime.db, raw, core.clock());
      if (!agent) {
        await runtime.close();
        console.error(TOKEN_REFUSED);
        return 2;
      }
      actor = agent;
      recheck = (fresh) => authenticateToken(runtime.db, raw, core.clock(), fresh);
    } else {
      const local = await localActor(runtime.db, {
        as: values.as,
        household: values.household,
        channel: 'mcp',
      });
      actor = {
        ...local,
        kind: 'agent',
        scope: values.trusted ? 'trusted' : 'write',
        agent: { name: 'local MCP client' },
      };
    }
    const { runMcpStdio } = await import('../mcp/stdio.ts');
    const end = await runMcpStdio({ core, actor, recheck });
    await runtime.close();
    if (end === 'closed') return 0;
    console.error(`${TOKEN_REFUSED} Exhale refused it from then on and stopped serving.`);
    return 2;
  },
  token: async (args) => {
    const [sub, ...rest] = args;
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        scope: { type: 'string', default: 'read' },
        name: { type: 'string' },
        'expires-in-days': { type: 'string' },
        as: { type: 'string' },
        household: { type: 'string' },
      },
    });
    const runtime = await runtimeFor(loadConfig(), { existing: true });
    try {
      const actor = await localActor(runtime.db, {
        as: values.as,
        household: values.household,
      });
      switch (sub) {
        case 'create': {
          if (!values.name) {
            console.error(
              'exhale token create needs --name (what the agent is, such as "Claude Desktop").',
            );
            return 2;
          }
          const days = values['expires-in-days'];
          // The op checks the number (a whole number of days, 1 to 3650) and says so in a sentence.
          const { output } = await runtime.core.invoke('create_token', actor, {
            name: values.name,
            scope: values.scope,
            ...(days !== undefined ? { expires_in_days: Number(days) } : {}),
          });
          console.log(
            `Token for "${output.name}" (${output.scope}${output.expires_at ? `, until ${output.expires_at}` : ''}); it is shown only now:\n\n  ${output.token}\n`,
          );
          console.log(
            'Use it as "Authorization: Bearer <token>" on /mcp, or EXHALE_TOKEN=<token> exhale mcp.',
          );
          return 0;
        }
        case 'list': {
          const { output } = await runtime.core.invoke('list_tokens', actor, {});
          console.log(JSON.stringify(output, null, 2));
          return 0;
        }
        case 'revoke': {
          const [id, ...extra] = positionals;
          if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra.join(' ')}".`);
          if (!id) {
            console.error('Usage: exhale token revoke ID (see exhale token list).');
            return 2;
          }
          await runtime.core.invoke('revoke_token', actor, { id });
          console.log(`Revoked ${id}.`);
          return 0;
        }
        default:
          console.error('Usage: exhale token create|list|revoke …');
          return 2;
      }
    } finally {
      await runtime.close();
    }
  },
  web: async (args) => {
    const { values } = parseArgs({
      args,
      options: { as: { type: 'string' }, household: { type: 'string' } },
    });
    const config = loadConfig();
    const runtime = await runtimeFor(config, { existing: true });
    try {
      const actor = await localActor(runtime.db, { as: values.as, household: values.household });
      const { output } = await runtime.core.invoke(
        'create_sign_in_link',
        actor,
        {},
        { surface: 'cli' },
      );
      console.log(
        `Open this link in your browser to use Exhale's web app (it works once, for 10 minutes):\n\n  ${await cliWebUrl(config)}${output.path}\n`,
      );
      if (!config.EXHALE_PUBLIC_URL)
        console.log(
          'It points at this machine (exhale must be running); set EXHALE_PUBLIC_URL to reach it from elsewhere.',
        );
      return 0;
    } finally {
      await runtime.close();
    }
  },
  op: async (args) => {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        'dry-run': { type: 'boolean', default: false },
        as: { type: 'string' },
        household: { type: 'string' },
        document: { type: 'string' },
      },
    });
    const [name, json = '{}', ...extra] = positionals;
    // A mistyped flag ("dry-run" without dashes) must never be ignored: it could have meant "do not write".
    if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra.join(' ')}".`);
    if (!name) {
      console.error(
        "Usage: exhale op NAME ['<json>'] [--dry-run] [--as MEMBER] [--household ID]. `npx exhale ops` lists the names.",
      );
      return 2;
    }
    // A big input (an export to import) comes from a file (@path) or standard input (-).
    let text = json;
    try {
      if (json === '-') text = await streamText(process.stdin);
      else if (json.startsWith('@')) text = readFileSync(json.slice(1), 'utf8');
    } catch (error) {
      console.error(
        `Cannot read the input ${json}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return 2;
    }
    let input: unknown;
    // Deeper nesting than any real input is refused as a sentence before anything walks it.
    if (jsonTextTooDeep(text)) throw tooDeep();
    try {
      input = JSON.parse(text);
    } catch {
      console.error(`The input is not valid JSON: ${text.slice(0, 200)}`);
      return 2;
    }
    // `--document export.json`: a file's text as the op's `document` (import_data, read_document).
    if (values.document !== undefined) {
      if (typeof input !== 'object' || input === null || Array.isArray(input))
        throw new UsageError('--document goes with a JSON object input (or none).');
      try {
        input = { ...input, document: documentText(readFileSync(values.document, 'utf8')) };
      } catch (error) {
        console.error(
          `Cannot read ${values.document}: ${error instanceof Error ? error.message : String(error)}`,
        );
        return 2;
      }
    }
    const runtime = await runtimeFor(loadConfig(), { existing: true });
    try {
      // A mistyped name is said before anything asks which household or member.
      if (!runtime.core.catalog.some((op) => op.name === name)) {
        console.error(`There is no op "${name}". \`npx exhale ops\` lists the names.`);
        return 2;
      }
      const actor = await localActor(runtime.db, {
        as: values.as,
        household: values.household,
      });
      const result = await runtime.core.invoke(name, actor, input, {
        dryRun: values['dry-run'],
        surface: 'cli',
      });
      const printed = values['dry-run']
        ? { dry_run: true, output: result.output, changes: result.changes }
        : result.auditId
          ? { ...asObject(result.output), activity_id: result.auditId }
          : result.output;
      console.log(JSON.stringify(printed, null, 2));
      return 0;
    } finally {
      await runtime.close();
    }
  },
};

/**
 * A document file's text, as import_data reads it. The output of `exhale op export_data` saved to
 * a file is accepted as it is: its document is taken out of the result around it.
 */
function documentText(text: string): string {
  // Too deep to take apart here (it would overflow the stack): import_data refuses it in words.
  if (jsonTextTooDeep(text)) return text;
  try {
    const parsed: unknown = JSON.parse(text);
    const saved = parsed as { filename?: unknown; document?: unknown } | null;
    if (saved && typeof saved.filename === 'string' && saved.document !== undefined)
      return typeof saved.document === 'string' ? saved.document : JSON.stringify(saved.document);
  } catch {
    // Not JSON (a CSV, a statement): the text as it is.
  }
  return text;
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : { result: value };
}

async function main(argv: string[]): Promise<void> {
  const [name = 'start', ...rest] = argv;
  const command = commands[name === '--help' || name === '-h' ? 'help' : name];
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(USAGE);
    return;
  }
  try {
    const code = await command(rest);
    if (code >= 0) process.exitCode = code;
  } catch (error) {
    process.exitCode = reportError(error);
    // Whatever is still open after a failure (a pool, a pending connection) must not keep the
    // process alive: the person has read the sentence and expects their prompt back.
    setTimeout(() => process.exit(process.exitCode ?? 1), 1_000).unref();
  } finally {
    if (name !== 'start') await Promise.all(opened.map((r) => r.close().catch(() => undefined)));
  }
}

/** Prints an error as a sentence and returns the exit code: 2 for what the person can fix. */
function reportError(error: unknown): number {
  if (error instanceof OpError) {
    console.error(error.render(errorLocale));
    if (error.key === 'errors.unknown_op') console.error('`npx exhale ops` lists them.');
    return error.httpStatus >= 500 ? 1 : 2;
  }
  if (error instanceof UsageError || isParseArgsError(error)) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (
    error instanceof ConfigError ||
    error instanceof LocalActorError ||
    error instanceof ImportFileError ||
    error instanceof ChannelConfigError
  ) {
    console.error(error.message);
    return 2;
  }
  // The database busy or in a conflict outside an op (opening it, finding the member): a sentence,
  // not the SQL that waited.
  const failure = storeFailure(error);
  if (failure === 'busy' || failure === 'conflict') {
    console.error(new OpError('unavailable', 'errors.busy').render(errorLocale));
    return 1;
  }
  console.error(new OpError('internal').render(errorLocale));
  console.error(`  (${error instanceof Error ? error.message : String(error)})`);
  return 1;
}

// `exhale ops | head` closes the pipe early: that is the reader being done, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

await main(process.argv.slice(2));
