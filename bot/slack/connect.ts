import type { ChatAssistant } from '../../core/chat/index.ts';
import type { ChannelRegistry, Core } from '../../core/index.ts';
import type { RouteGroup } from '../http/app.ts';
import { slackAdapter } from './adapter.ts';
import { SlackRefused } from './index.ts';

export interface SlackSettings {
  token: string;
  signingSecret?: string | undefined;
  appToken?: string | undefined;
  apiUrl?: string | undefined;
  webUrl?: string | undefined;
  /** Where Exhale's own web is reached: sign-in links point there. */
  siteUrl?: string | undefined;
}

const RETRY_MS = 60_000;
const CONNECT_WAIT_MS = 8_000;

const describe = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * Registers Slack in the registry and connects it. Start-up waits a little: a token Slack refuses
 * rejects with `SlackRefused` (a sentence naming the variable), while an unreachable Slack keeps
 * being retried every minute in the background and the rest of Exhale runs. Resolves with the
 * start-up status line and a stop for the retries.
 */
export async function connectSlack(
  core: Core,
  registry: ChannelRegistry,
  settings: SlackSettings,
  options: {
    assistant?: ChatAssistant | undefined;
    mount: (routes: RouteGroup) => void;
    log: (line: string, error?: unknown) => void;
  },
): Promise<{ status: string; stop(): void }> {
  const { log } = options;
  registry.register(
    slackAdapter({
      core,
      token: settings.token,
      signingSecret: settings.signingSecret,
      appToken: settings.appToken,
      apiUrl: settings.apiUrl,
      webUrl: settings.webUrl,
      siteUrl: settings.siteUrl,
      assistant: options.assistant,
      log,
      mount: options.mount,
    }),
  );
  let retry: NodeJS.Timeout | null = null;
  let stopped = false;
  const connect = (): Promise<void> => registry.start('slack');
  const mode = settings.appToken ? 'Socket Mode' : 'events at /slack/events';
  const retryLater = (): void => {
    retry = setTimeout(() => {
      if (stopped) return;
      connect().then(
        () => log('Slack connected.'),
        (error: unknown) => {
          if (error instanceof SlackRefused) log(error.message);
          else {
            log(`Slack still not reachable (${describe(error)}); retrying in a minute.`);
            retryLater();
          }
        },
      );
    }, RETRY_MS);
    retry.unref();
  };
  const attempt = connect().then(
    () => 'connected' as const,
    (error: unknown) => error,
  );
  let waitTimer: NodeJS.Timeout | null = null;
  const outcome = await Promise.race([
    attempt,
    new Promise<'waiting'>((resolve) => {
      waitTimer = setTimeout(() => resolve('waiting'), CONNECT_WAIT_MS);
      waitTimer.unref();
    }),
  ]);
  if (waitTimer) clearTimeout(waitTimer);
  const stop = (): void => {
    stopped = true;
    if (retry) clearTimeout(retry);
  };
  if (outcome === 'connected') return { status: `  Slack: on (${mode}), reminders on`, stop };
  if (outcome instanceof SlackRefused) {
    stop();
    throw outcome;
  }
  if (outcome === 'waiting') {
    void attempt.then((late) => {
      if (late === 'connected') log('Slack connected.');
      else if (late instanceof SlackRefused) log(late.message);
      else {
        log(`Slack is not reachable (${describe(late)}); retrying every minute.`);
        retryLater();
      }
    });
    return { status: '  Slack: connecting… (Slack has not answered yet; it keeps trying)', stop };
  }
  log(`Slack is not reachable (${describe(outcome)}); retrying every minute.`);
  retryLater();
  return { status: '  Slack: not reachable yet, retrying every minute', stop };
}
