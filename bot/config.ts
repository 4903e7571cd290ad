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
  EXHALE_PORT: z.coerce
    .number('must be a port number from 0 to 65535')
    .int('must be a port number from 0 to 65535')
    .min(0, 'must be a port number from 0 to 65535')
    .max(65535, 'must be a port number from 0 to 65535')
    .default(8080),
  EXHALE_HOST: z.string().min(1).default('127.0.0.1'),
  EXHALE_PUBLIC_URL: z
    .url('must be a URL such as https://exhale.example.com')
    .refine(
      (u) =>
        u.startsWith('https://') ||
        /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/.test(u),
      'must be an https:// URL (Telegram webhooks and remote agents need TLS; plain http only for localhost)',
    )
    .optional(),
  EXHALE_TRUST_PROXY: z.enum(['on', 'off'], 'must be "on" or "off"').default('off'),
  EXHALE_OAUTH_TRUSTED_DOCUMENT_HOSTS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim())
        .filter(Boolean),
    )
    .optional(),
  EXHALE_TELEGRAM_TOKEN: z
    .string()
    .regex(/^\d+:[\w-]+$/, 'must look like 123456:ABC-DEF… (from @BotFather)')
    .optional(),
  EXHALE_TELEGRAM_API_ROOT: z.url('must be a URL').optional(),
  EXHALE_MINIAPP_URL: z.url('must be a URL').optional(),
  EXHALE_SLACK_BOT_TOKEN: z
    .string()
    .regex(/^xoxb-[\w-]+$/, 'must be a bot token, xoxb-… (OAuth & Permissions in your Slack app)')
    .optional(),
  EXHALE_SLACK_SIGNING_SECRET: z
    .string()
    .regex(/^[\w-]{8,}$/, 'must be the Signing Secret of your Slack app (Basic Information)')
    .optional(),
  EXHALE_SLACK_APP_TOKEN: z
    .string()
    .regex(
      /^xapp-[\w-]+$/,
      'must be an app-level token, xapp-… (Basic Information → App-Level Tokens)',
    )
    .optional(),
  EXHALE_SLACK_API_URL: z.url('must be a URL such as https://slack.com/api/').optional(),
  /** The built Mini App served at /app/ (default miniapp/dist, built on start when missing). */
  EXHALE_MINIAPP_DIST: z.string().min(1).optional(),
  EXHALE_MINIAPP_INIT_DATA_MAX_AGE: z.coerce
    .number('must be a number of seconds (0: no limit)')
    .int('must be a whole number of seconds (0: no limit)')
    .min(0, 'must be a number of seconds (0: no limit)')
    .default(86_400),
  EXHALE_ECB_RATES: z.enum(['on', 'off'], 'must be "on" or "off"').default('on'),
  /** How often the scheduler looks for due reminders (reminder times have minute precision). */
  EXHALE_SCHEDULER_SECONDS: z.coerce
    .number('must be a number of seconds from 1 to 300')
    .int('must be a whole number of seconds from 1 to 300')
    .min(1, 'must be a number of seconds from 1 to 300')
    .max(300, 'must be a number of seconds from 1 to 300')
    .default(30),
  EXHALE_ASSISTANT_PROVIDER: z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(
      z.enum(
        ['anthropic', 'openai'],
        'must be "anthropic" or "openai" (any OpenAI-compatible server)',
      ),
    )
    .optional(),
  EXHALE_ASSISTANT_BASE_URL: z.url('must be a URL such as http://localhost:11434').optional(),
  EXHALE_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** `json` (one object a line, for a log collector) or `pretty`; unset, pretty in a terminal, JSON otherwise. */
  EXHALE_LOG_FORMAT: z.enum(['json', 'pretty'], 'must be "json" or "pretty"').optional(),
  /** A scrape of `/metrics` must send it as a bearer token; unset, only loopback clients are answered. */
  EXHALE_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
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

/**
 * Where Exhale's own web (the Mini App, sign-in links, calendar feeds) is reached: the public URL,
 * or this machine's address when there is none (0.0.0.0 and :: read as localhost).
 */
export function webBaseUrl(
  config: Pick<Config, 'EXHALE_PUBLIC_URL' | 'EXHALE_HOST' | 'EXHALE_PORT'>,
): string {
  if (config.EXHALE_PUBLIC_URL) return config.EXHALE_PUBLIC_URL.replace(/\/+$/, '');
  const host = ['0.0.0.0', '::', '[::]'].includes(config.EXHALE_HOST)
    ? 'localhost'
    : config.EXHALE_HOST;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${config.EXHALE_PORT}`;
}
