import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/exhale.mjs', import.meta.url));

/** The environment of a child `exhale`: the test's, without its database, plus `env`. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, EXHALE_ECB_RATES: 'off' };
  delete base.EXHALE_DATABASE_URL;
  delete base.EXHALE_TELEGRAM_TOKEN;
  for (const key of Object.keys(base)) if (key.startsWith('EXHALE_SLACK_')) delete base[key];
  return { ...base, ...env };
}

/**
 * Runs one `exhale` command to its end (bounded at 60 s). `stdin`, when given, is piped in and
 * then closed, as `printf '/undo\n' | npx exhale chat` does.
 */
export function runExhale(
  env: Record<string, string>,
  args: string[],
  stdin?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { env: childEnv(env), timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

/** Creates a household with `exhale init` and returns a token of `scope` for its owner. */
export async function householdWithToken(
  env: Record<string, string>,
  scope: 'read' | 'write' | 'trusted',
): Promise<string> {
  const init = await runExhale(env, [
    'init',
    ...['--name', 'Home', '--currency', 'EUR', '--time-zone', 'Europe/Madrid', '--owner', 'Ana'],
  ]);
  if (init.code !== 0) throw new Error(`exhale init failed: ${init.stderr}`);
  const created = await runExhale(env, ['token', 'create', '--scope', scope, '--name', 'Test']);
  const token = /shown only now:\n\n {2}(\S+)/.exec(created.stdout)?.[1];
  if (!token) throw new Error(`no token in: ${created.stdout}${created.stderr}`);
  return token;
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface ExhaleServer {
  child: ChildProcess;
  url: string;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves when the output has a line matching `pattern` (rejects after `ms`, or at exit). */
  line(pattern: RegExp, ms?: number): Promise<void>;
  /** Resolves with the exit code (null after a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

/** Starts `exhale` (the server) as a child process; resolves once it says it is running. */
export async function startExhaleProcess(env: Record<string, string>): Promise<ExhaleServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN], {
    env: childEnv({ ...env, EXHALE_PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    text += chunk.toString();
    for (const check of [...waiters]) check();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      for (const check of [...waiters]) check();
      resolve({ code, signal });
    }),
  );
  const line = (pattern: RegExp, ms = 30_000): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no line ${String(pattern)} within ${ms} ms:\n${text}`));
      }, ms);
      const check = (): void => {
        if (pattern.test(text)) {
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        } else if (child.exitCode !== null || child.signalCode !== null) {
          clearTimeout(timer);
          waiters.delete(check);
          reject(new Error(`exhale exited before ${String(pattern)}:\n${text}`));
        }
      };
      waiters.add(check);
      check();
    });
  const server: ExhaleServer = {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => text,
    line,
    exited,
    kill: (signal) => void child.kill(signal),
  };
  await line(/Exhale is running\./);
  return server;
}
