import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { type Config, webBaseUrl } from './config.ts';

/**
 * Where the running server listens, for the CLI on the same data directory: `exhale web` and
 * the terminal chat's Open-in-app links point at it even when this shell does not set EXHALE_PORT
 * (a server started with EXHALE_PORT=3000 elsewhere). The server writes `server.json` into the
 * data directory once it listens and removes it as it stops; a file left by a killed server is
 * noticed (its address does not answer) and the CLI falls back to the configured address, saying so.
 */

const FILE = 'server.json';

interface Address {
  url: string;
  pid: number;
}

/** Writes this server's address; the returned function removes it (if it is still this one's). */
export function announceServer(dataDir: string, url: string): () => void {
  const file = path.join(dataDir, FILE);
  const mine: Address = { url, pid: process.pid };
  try {
    writeFileSync(file, `${JSON.stringify(mine)}\n`);
  } catch {
    // A read-only data directory (PostgreSQL deployments may have none worth writing): the CLI
    // then uses the configured address, as before.
    return () => undefined;
  }
  return () => {
    if (readAddress(dataDir)?.pid === process.pid) rmSync(file, { force: true });
  };
}

function readAddress(dataDir: string): Address | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path.join(dataDir, FILE), 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { url, pid } = parsed as Record<string, unknown>;
    return typeof url === 'string' && /^https?:\/\//.test(url) && typeof pid === 'number'
      ? { url, pid }
      : null;
  } catch {
    return null;
  }
}

/** Whether `url`'s health check answers within a second and a half. */
async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1500) });
    return res.status < 500;
  } catch {
    return false;
  }
}

/**
 * The web app's base URL as the CLI should print it: EXHALE_PUBLIC_URL or an EXHALE_PORT set in
 * this shell win; else the running server's address from the data directory, when it answers;
 * else the configured default, with a note on `warn` when a stale address was found.
 */
export async function cliWebUrl(
  config: Pick<Config, 'EXHALE_PUBLIC_URL' | 'EXHALE_HOST' | 'EXHALE_PORT' | 'EXHALE_DATA_DIR'>,
  env: NodeJS.ProcessEnv = process.env,
  warn: (line: string) => void = (line) => console.error(line),
): Promise<string> {
  const configured = webBaseUrl(config);
  if (config.EXHALE_PUBLIC_URL || env.EXHALE_PORT) return configured;
  const running = readAddress(config.EXHALE_DATA_DIR);
  if (!running) return configured;
  const url = running.url.replace(/\/+$/, '');
  if (url === configured || (await answers(url))) return url;
  warn(
    `${path.join(config.EXHALE_DATA_DIR, FILE)} says Exhale runs at ${url}, but nothing answers there (was it stopped or killed?); using ${configured}. Start it with \`npm start\`, or set EXHALE_PORT.`,
  );
  return configured;
}
