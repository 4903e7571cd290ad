import { App, Assistant, LogLevel, type Receiver } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';

import {
  type ChatEngine,
  type ChatEvent,
  type Conversation,
  type IncomingFile,
  resolveSpeaker,
} from '../../core/chat/index.ts';
import { type Locale, localeFrom, t } from '../../core/index.ts';
import { SlackChannel, type SlackChannelOptions } from './channel.ts';
import { homeView, publishHome } from './home.ts';
import { accountOf, isDirect, Profiles, slackConversation } from './people.ts';
import { ACTION_PREFIX, LINK_PREFIX } from './render.ts';
import { typedText } from './text.ts';

export interface SlackAppOptions {
  engine: ChatEngine;
  token: string;
  /** Set for HTTP mode: the receiver that serves `/slack/events` on the edge. */
  receiver?: Receiver | undefined;
  /** Who the app is in Slack, from the `auth.test` start-up made (Bolt then needs no call of its own). */
  bot: { id: string; userId: string };
  /** Set (an xapp- token) for Socket Mode. */
  appToken?: string | undefined;
  /** Another Web API root (`http://host/api/`), a test fake. */
  apiUrl?: string | undefined;
  /** The web app's URL, for App Home's button. */
  webUrl?: string | null | undefined;
  streamBuffer?: number | undefined;
  /**
   * Whether an event is new: Slack re-delivers an event it thinks was lost (to any process behind
   * the balancer, or over another socket); a re-delivery is acknowledged and not processed again.
   */
  firstTime(eventId: string): Promise<boolean>;
  log: (message: string, error?: unknown) => void;
}

/** The Web API client's options: another API root (a fake), and retries that suit a chat. */
export function slackClientOptions(apiUrl: string | undefined): {
  slackApiUrl?: string;
  retryConfig: { retries: number; factor: number; minTimeout: number; maxTimeout: number };
} {
  return {
    ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
    // 429s wait for Retry-After inside the client; failures are retried a few times, not for 30 min.
    retryConfig: { retries: 4, factor: 2, minTimeout: 200, maxTimeout: 5_000 },
  };
}

/** The fields of a message event Exhale reads; anything else Slack sends is ignored. */
const Message = z.object({
  channel: z.string(),
  user: z.string().optional(),
  text: z.string().optional(),
  ts: z.string(),
  thread_ts: z.string().optional(),
  subtype: z.string().optional(),
  bot_id: z.string().optional(),
  team: z.string().optional(),
  channel_type: z.string().optional(),
  files: z.array(z.object({ id: z.string() })).optional(),
});
type Message = z.infer<typeof Message>;

const FileInfo = z.object({
  name: z.string().optional(),
  mimetype: z.string().optional(),
  size: z.number().optional(),
  url_private_download: z.string().optional(),
});

const ThreadStarted = z.object({
  assistant_thread: z.object({
    user_id: z.string(),
    channel_id: z.string(),
    thread_ts: z.string(),
  }),
});

const Press = z.object({
  user: z.object({ id: z.string(), team_id: z.string().optional() }),
  team: z.object({ id: z.string() }).nullable().optional(),
  channel: z.object({ id: z.string() }).optional(),
  container: z
    .object({
      thread_ts: z.string().optional(),
      message_ts: z.string().optional(),
      is_ephemeral: z.boolean().optional(),
    })
    .optional(),
  response_url: z.string().optional(),
  message: z
    .object({
      ts: z.string(),
      thread_ts: z.string().optional(),
      text: z.string().optional(),
      blocks: z.array(z.unknown()).optional(),
    })
    .optional(),
});

const Command = z.object({
  text: z.string(),
  user_id: z.string(),
  team_id: z.string(),
  channel_id: z.string(),
  response_url: z.string().optional(),
  api_app_id: z.string().optional(),
});

/** `member_joined_channel`: who joined which channel, and who added them. */
const Joined = z.object({
  user: z.string(),
  channel: z.string(),
  team: z.string().optional(),
  inviter: z.string().optional(),
});

const AppId = z.object({ api_app_id: z.string() });

/**
 * Commands answered to the whole channel when typed there: linking the channel is the channel's
 * business. Every other answer in a channel shows one person's household data or card, so it is
 * ephemeral (only they see it); in the DM everything is an ordinary message.
 */
const PUBLIC_IN_CHANNEL = new Set(['link']);

const mentionOf = (botUser: string | undefined): RegExp =>
  new RegExp(`<@${botUser ?? 'U[A-Z0-9]+'}>`, 'g');

/**
 * The Bolt app: every Slack event becomes one engine event (`ChatEngine.handle`), with a
 * `SlackChannel` for the conversation it came from. DMs and the Assistant container are private
 * chats; a mention in a channel, or the slash command there, is a shared audience. The app holds
 * nothing of its own: who the person is comes from `member_identities`, what a button does from
 * its `flows` row, so any process answers any event.
 */
export function createSlackApp(options: SlackAppOptions): {
  app: App;
  client: WebClient;
  profiles: Profiles;
  channelFor(o: Omit<SlackChannelOptions, 'commands' | 'log'>): SlackChannel;
  publishHomeOf(team: string, user: string): Promise<void>;
  /** Resolves once no acknowledged event is still being worked on. */
  idle(): Promise<void>;
} {
  const { engine, log } = options;
  const clientOptions = slackClientOptions(options.apiUrl);
  const app = new App({
    token: options.token,
    botId: options.bot.id,
    botUserId: options.bot.userId,
    // Verified by startSlack before the app is built; Bolt's own eager check would reject unhandled.
    tokenVerificationEnabled: false,
    logLevel: LogLevel.ERROR,
    clientOptions,
    ...(options.appToken
      ? { socketMode: true, appToken: options.appToken, installerOptions: { clientOptions } }
      : { receiver: options.receiver }),
  });
  const client = app.client;
  const EventId = z.object({ event_id: z.string() });
  // Work still running for events already acknowledged (HTTP or Socket Mode); `idle` waits for it.
  const inFlight = new Set<Promise<void>>();
  app.use(async ({ body, next }) => {
    const work = (async () => {
      const event = EventId.safeParse(body);
      if (event.success && !(await options.firstTime(event.data.event_id))) return;
      await next();
    })();
    inFlight.add(work);
    try {
      await work;
    } finally {
      inFlight.delete(work);
    }
  });
  const idle = async (): Promise<void> => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };
  const profiles = new Profiles(client, log);
  const commands = new Set<string>([
    'start',
    ...engine.commandMenu('en', 'private').map((c) => c.command),
    ...engine.commandMenu('en', 'group').map((c) => c.command),
  ]);

  /**
   * Slack keeps a leading `/` for its own command box, so a message whose first word is one of the
   * engine's commands (`@Exhale list`, `list` in the DM, `exhale list`) is that command; anything
   * else is free text (for the assistant, when it is on).
   */
  const asCommand = (said: string): string => {
    const words = said.replace(/^\/?exhale\s+/i, '');
    const first = words.split(/\s/)[0]?.toLowerCase() ?? '';
    return commands.has(first) ? `/${first}${words.slice(first.length)}` : said;
  };

  const channelFor = (o: Omit<SlackChannelOptions, 'commands' | 'log'>): SlackChannel =>
    new SlackChannel(client, { ...o, commands, log, streamBuffer: options.streamBuffer });

  const localeOf = async (conv: Conversation): Promise<Locale> =>
    (await resolveSpeaker(engine.core.db, conv.who)).locale;

  /** The error boundary of one event: logged, and a short apology in the person's language. */
  const guarded = async (
    what: string,
    conv: Conversation | null,
    channel: SlackChannel | null,
    work: () => Promise<void>,
  ): Promise<void> => {
    try {
      await work();
    } catch (error) {
      log(`slack: ${what} failed`, error);
      if (!channel) return;
      const locale = conv
        ? await localeOf(conv).catch(() => localeFrom(conv.who.languageCode))
        : 'en';
      await channel
        .send({ text: t(locale, 'chat.error.internal') })
        .catch((e: unknown) => log('slack: the apology could not be sent', e));
    }
  };

  /**
   * A person with no household met in a channel (a mention, a slash command): the onboarding
   * offer, only to them, with a button to the app's DM where `/exhale start` works. True when
   * the person was a newcomer (and has been told).
   */
  const offeredOnboarding = async (
    conv: Conversation,
    channel: SlackChannel,
    appId: string | undefined,
    team: string,
  ): Promise<boolean> => {
    const speaker = await resolveSpeaker(engine.core.db, conv.who);
    if (!speaker.newcomer) return false;
    await channel.send({
      text: t(speaker.locale, 'slack.unlinked'),
      ...(appId
        ? {
            buttons: [
              [
                {
                  kind: 'url' as const,
                  label: t(speaker.locale, 'slack.open_dm'),
                  url: `https://slack.com/app_redirect?app=${encodeURIComponent(appId)}&team=${encodeURIComponent(team)}`,
                },
              ],
            ],
          }
        : {}),
    });
    return true;
  };

  const publishHomeOf = async (team: string, user: string): Promise<void> => {
    const profile = await profiles.of(user);
    const conv = slackConversation(team, user, `D${user}`, profile);
    const speaker = await resolveSpeaker(engine.core.db, conv.who);
    const view = await homeView(
      engine.core,
      speaker.newcomer ? null : speaker.actor,
      speaker.locale,
      options.webUrl ?? null,
    );
    await publishHome(client, user, view);
  };

  /**
   * A file shared in the DM: `files.info` gives its name, type, size and private download URL
   * (fetched with the bot token only when the engine uses the file, after its size check).
   */
  const fileOf = async (id: string): Promise<IncomingFile> => {
    const info = FileInfo.parse((await client.files.info({ file: id })).file ?? {});
    return {
      name: info.name,
      mediaType: info.mimetype,
      size: info.size ?? null,
      download: async () => {
        if (!info.url_private_download) throw new Error('Slack gave no download URL');
        const response = await fetch(info.url_private_download, {
          headers: { authorization: `Bearer ${options.token}` },
        });
        if (!response.ok) throw new Error(`downloading a Slack file answered ${response.status}`);
        return new Uint8Array(await response.arrayBuffer());
      },
    };
  };

  const onMessage = async (raw: unknown, team: string, assistantThread: boolean): Promise<void> => {
    const parsed = Message.safeParse(raw);
    if (!parsed.success) return;
    const m: Message = parsed.data;
    if (!m.user || m.bot_id || (m.subtype && m.subtype !== 'file_share')) return;
    // Outside DMs only mentions are for Exhale (they arrive as app_mention).
    if (!isDirect(m.channel)) return;
    const user = m.user;
    const conv = slackConversation(m.team ?? team, user, m.channel, await profiles.of(user));
    const locale = await localeOf(conv);
    const channel = channelFor({
      channel: m.channel,
      user,
      team: m.team ?? team,
      threadTs: assistantThread ? (m.thread_ts ?? m.ts) : undefined,
      assistantThread,
      status: t(locale, 'slack.assistant.status'),
    });
    await guarded('a message', conv, channel, async () => {
      if (assistantThread && m.thread_ts) {
        // The thread is titled by its question, and shows a status until the answer starts
        // (Slack clears it when the app replies). Neither is worth failing the answer for.
        const thread = { channel_id: m.channel, thread_ts: m.thread_ts };
        if (m.text)
          await client.assistant.threads
            .setTitle({ ...thread, title: m.text.slice(0, 60) })
            .catch((error: unknown) => log('slack: setting the thread title failed', error));
        await client.assistant.threads
          .setStatus({ ...thread, status: t(locale, 'slack.assistant.status') })
          .catch((error: unknown) => log('slack: setting the thread status failed', error));
      }
      const text = typedText(m.text ?? '').trim();
      const file = m.files?.[0];
      let event: ChatEvent;
      if (file) {
        event = {
          kind: 'file',
          file: await fileOf(file.id),
          caption: text,
          addressed: true,
        };
      } else
        event = { kind: 'text', text: assistantThread ? text : asCommand(text), addressed: true };
      await engine.handle(conv, event, channel);
    });
  };

  app.assistant(
    new Assistant({
      threadStarted: async ({ event, context }) => {
        const parsed = ThreadStarted.safeParse(event);
        if (!parsed.success) return;
        const thread = parsed.data.assistant_thread;
        const team = context.teamId ?? '';
        const conv = slackConversation(
          team,
          thread.user_id,
          thread.channel_id,
          await profiles.of(thread.user_id),
        );
        await guarded('an assistant thread', conv, null, async () => {
          const locale = await localeOf(conv);
          await client.assistant.threads.setSuggestedPrompts({
            channel_id: thread.channel_id,
            thread_ts: thread.thread_ts,
            title: t(locale, 'slack.assistant.prompts_title'),
            prompts: (['month', 'savings', 'add'] as const).map((p) => ({
              title: t(locale, `slack.assistant.prompt.${p}.title`),
              message: t(locale, `slack.assistant.prompt.${p}.message`),
            })),
          });
        });
      },
      userMessage: async ({ message, context }) => {
        await onMessage(message, context.teamId ?? '', true);
      },
    }),
  );

  app.event('message', async ({ event, context }) => {
    await onMessage(event, context.teamId ?? '', false);
  });

  app.event('app_mention', async ({ event, context, body }) => {
    const parsed = Message.safeParse(event);
    if (!parsed.success || !parsed.data.user) return;
    const m = parsed.data;
    const user = parsed.data.user;
    const team = m.team ?? context.teamId ?? '';
    const conv = slackConversation(team, user, m.channel, await profiles.of(user));
    const channel = channelFor({ channel: m.channel, user, team, threadTs: m.thread_ts });
    const said = typedText((m.text ?? '').replace(mentionOf(context.botUserId), ''))
      .replace(/\s{2,}/g, ' ')
      .trim();
    const text = asCommand(said);
    const appId = AppId.safeParse(body).data?.api_app_id;
    await guarded('a mention', conv, channel, async () => {
      if (!isDirect(m.channel)) {
        const privately = channelFor({ channel: m.channel, user, team, ephemeral: true });
        if (await offeredOnboarding(conv, privately, appId, team)) return;
      }
      await engine.handle(conv, { kind: 'text', text, addressed: true }, channel);
    });
  });

  /**
   * The app added to a channel: one short message there says what it does and how each person
   * links, in the language of the person who added it (English when unknown).
   */
  app.event('member_joined_channel', async ({ event, context }) => {
    const parsed = Joined.safeParse(event);
    if (!parsed.success || parsed.data.user !== context.botUserId) return;
    const joined = parsed.data;
    const team = joined.team ?? context.teamId ?? '';
    const inviter = joined.inviter;
    const conv = inviter
      ? slackConversation(team, inviter, joined.channel, await profiles.of(inviter))
      : null;
    const channel = channelFor({ channel: joined.channel, user: inviter ?? '', team });
    await guarded('joining a channel', conv, channel, async () => {
      const locale = conv ? await localeOf(conv) : 'en';
      await channel.send({ text: t(locale, 'slack.joined') });
    });
  });

  app.command('/exhale', async ({ command, ack }) => {
    await ack();
    const parsed = Command.safeParse(command);
    if (!parsed.success) return;
    const c = parsed.data;
    const conv = slackConversation(
      c.team_id,
      c.user_id,
      c.channel_id,
      await profiles.of(c.user_id),
    );
    // `/exhale add Netflix 15.99` is the engine's `/add Netflix 15.99`; a bare `/exhale` is /help.
    const words = typedText(c.text).trim();
    const text = words.length === 0 ? '/help' : `/${words.replace(/^\//, '')}`;
    const first = (text.slice(1).split(/\s/)[0] ?? '').toLowerCase();
    const inChannel = !isDirect(c.channel_id);
    const channel = channelFor({
      channel: c.channel_id,
      user: c.user_id,
      team: c.team_id,
      ephemeral: inChannel && !PUBLIC_IN_CHANNEL.has(first),
      responseUrl: c.response_url,
    });
    await guarded('the slash command', conv, channel, async () => {
      if (inChannel) {
        const privately = channelFor({
          channel: c.channel_id,
          user: c.user_id,
          team: c.team_id,
          ephemeral: true,
          responseUrl: c.response_url,
        });
        if (await offeredOnboarding(conv, privately, c.api_app_id, c.team_id)) return;
      }
      await engine.handle(conv, { kind: 'text', text, addressed: true }, channel);
    });
  });

  app.action(new RegExp(`^${LINK_PREFIX}`), async ({ ack }) => {
    await ack();
  });

  app.action(new RegExp(`^${ACTION_PREFIX}`), async ({ ack, body, action }) => {
    await ack();
    const parsed = Press.safeParse(body);
    if (!parsed.success || !('value' in action) || typeof action.value !== 'string') return;
    const p = parsed.data;
    const payload = action.value;
    const team = p.user.team_id ?? p.team?.id ?? '';
    const chat = p.channel?.id;
    if (!chat) return;
    const conv = slackConversation(team, p.user.id, chat, await profiles.of(p.user.id));
    const known = new Map<string, { text: string; blocks: unknown[] }>();
    const message = p.message;
    if (message)
      known.set(`${chat}:${message.ts}`, {
        text: message.text ?? '',
        blocks: message.blocks ?? [],
      });
    const threadTs = message?.thread_ts ?? p.container?.thread_ts;
    // A press on an ephemeral message: Slack sends no `message`, only its ts and a response URL,
    // through which it is replaced or deleted; what follows is ephemeral too.
    const pressedEphemeral = p.container?.is_ephemeral ? p.container.message_ts : undefined;
    const channel = channelFor({
      channel: chat,
      user: p.user.id,
      team,
      threadTs,
      known,
      ...(pressedEphemeral
        ? { ephemeral: true, responseUrl: p.response_url, pressedEphemeral }
        : {}),
    });
    const pressed = message?.ts ?? pressedEphemeral;
    await guarded('a button', conv, channel, () =>
      engine.handle(
        conv,
        {
          kind: 'press',
          payload,
          message: pressed ? { chatId: chat, messageId: pressed } : null,
        },
        channel,
      ),
    );
  });

  app.event('app_home_opened', async ({ event, context }) => {
    if (event.tab !== 'home') return;
    await publishHomeOf(context.teamId ?? '', event.user).catch((error: unknown) =>
      log('slack: publishing App Home failed', error),
    );
  });

  app.error(async (error) => {
    log('slack: an event failed', error);
  });

  return { app, client, profiles, channelFor, publishHomeOf, idle };
}

export { accountOf };
