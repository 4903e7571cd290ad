import path from 'node:path';

import { z } from 'zod';

/**
 * Configuration comes from the environment, all under the EXHALE_ prefix. A bad value stops
 * start-up with a sentence naming the variable.
 */
const schema = z.object({
  EXHALE_DATA_DIR: z.string().min(1).default('./data'),
  EXHALE_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave it unset for SQLite)')
    .optional(),
  EXHALE_PORT: z.coerce.number().int('must be a whole number').min(0).max(65535).default(8080),
  EXHALE_HOST: z.string().min(1).default('127.0.0.1'),
  EXHALE_PUBLIC_URL: z.url('must be a URL such as https://exhale.example.com').optional(),
  EXHALE_TELEGRAM_TOKEN: z
    .string()
    .regex(/^\d+:[\w-]+$/, 'must look like 123456:ABC-DEF… (from @BotFather)')
    .optional(),
  EXHALE_TELEGRAM_API_ROOT: z.url('must be a URL').optional(),
  EXHALE_MINIAPP_URL: z.url('must be a URL').optional(),
  EXHALE_ECB_RATES: z.enum(['on', 'off'], 'must be "on" or "off"').default('on'),
  EXHALE_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
});

export type Config = z.infer<typeof schema> & { sqliteFile: string };

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads and checks the configuration; throws a ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => k.startsWith('EXHALE_') && v !== ''),
  );
  const result = schema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) =>
        `${issue.path.join('.')}: ${issue.message} (got "${String(present[String(issue.path[0])] ?? '')}")`,
    );
    throw new ConfigError(
      `Exhale cannot start, the configuration is wrong:\n  ${lines.join('\n  ')}`,
    );
  }
  return { ...result.data, sqliteFile: path.resolve(result.data.EXHALE_DATA_DIR, 'exhale.sqlite') };
}
