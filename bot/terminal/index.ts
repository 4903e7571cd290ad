import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { createInterface } from 'node:readline';

import {
  ChatEngine,
  type ChatAssistant,
  type Channel,
  type Conversation,
  type Reply,
  type SentRef,
} from '../../core/chat/index.ts';
import type { ChatLog } from './log.ts';
import { type NumberedChoice, renderTerminal } from './render.ts';
import {
  type Actor,
  type ChannelAdapter,
  type ChannelRegistry,
  type Core,
  type Locale,
  localeFrom,
  t,
} from '../../core/index.ts';

export interface TerminalChatDeps {
  core: Core;
  actor: Actor;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** The Mini App URL, printed as a link when set. */
  miniAppUrl?: string | undefined;
  /** Where Exhale's web is served: `/web` prints sign-in links there. */
  webUrl?: string | undefined;
  /** The built-in assistant: free text goes to it (its answer printed as it is written) when configured. */
  assistant?: ChatAssistant | undefined;
  /**
   * The process's channel registry: the session registers itself as the `terminal` channel while
   * it runs, so reminders and agent notices for the member at the keyboard are printed here.
   */
  channels?: ChannelRegistry | undefined;
  /**
   * The process's log, when it shares the terminal: held while an answer is printed on the
   * chat's line, so a failure's line never lands inside the answer (bot/terminal/log.ts).
   */
  logs?: Pick<ChatLog, 'hold' | 'release'> | undefined;
  /** Where files the chat hands over (/export) are written; default the current directory. */
  filesDir?: string | undefined;
}

/**
 * Writes a reply's files into `dir` (never outside it: a name is reduced to its base name) and
 * returns their full paths; an existing file of that name is replaced, as a download would be.
 */
async function writeFiles(dir: string, files: NonNullable<Reply['files']>): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  for (const file of files) {
    const path = resolve(dir, basename(file.name) || 'file');
    await writeFile(path, file.bytes);
    paths.push(path);
  }
  return paths;
}

const QUIT = new Set(['/quit', '/exit', 'quit', 'exit']);

/** A button's label as its number is kept by: its tick mark and its numbers aside. */
function sameButton(label: string): string {
  return label.replace(/^(?:✓|✅|⬜|☑️?|☐|✔️?)\s*/u, '').replace(/\d+/g, '#');
}

/**
 * `exhale chat`: the chat engine in a terminal, as the given actor (the local owner). Lines are
 * messages; typing a button's number presses it. Resolves when the input ends or on /quit.
 */
export async function runTerminalChat(deps: TerminalChatDeps): Promise<void> {
  const engine = new ChatEngine({
    core: deps.core,
    miniAppUrl: deps.miniAppUrl,
    webUrl: deps.webUrl,
    assistant: deps.assistant,
  });
  const write = (text: string): void => {
    deps.output.write(`${text}\n`);
  };
  const member = deps.actor.memberId
    ? ((await deps.core.db.knex('members').where({ id: deps.actor.memberId }).first('name')) as
        { name: string } | undefined)
    : undefined;
  const conv: Conversation = {
    who: {
      channel: 'terminal',
      externalId: null,
      displayName: member?.name ?? 'Owner',
      actor: { ...deps.actor, channel: 'terminal' },
    },
    where: { kind: 'private', chatId: 'terminal' },
  };
  // The member's language as it is now: /settings may change it during the session.
  let locale: Locale = deps.actor.locale;
  const refreshLocale = async (): Promise<void> => {
    if (!deps.actor.memberId) return;
    const row = (await deps.core.db
      .knex('members')
      .where({ id: deps.actor.memberId })
      .first('language')) as { language: string } | undefined;
    locale = localeFrom(row?.language ?? locale);
  };
  const choices = new Map<number, NumberedChoice>();
  /**
   * A button's number for the whole conversation: the same message's button of the same label
   * keeps its number when the message is redrawn (a page, a refreshed card), so a number read a
   * moment ago still presses that button; a new button gets a new number. A label is compared
   * without its tick ("✓ ", "✅ ", "⬜ ") and its counts ("Import 4" is "Import 5" once another row
   * is ticked): a redrawn card says the same button in other words.
   */
  const numbers = new Map<string, number>();
  let counter = 0;
  let messages = 0;
  const show = (reply: Reply, id: string, edited: boolean): void => {
    const rendered = renderTerminal(reply, id, (label, occurrence) => {
      const key = JSON.stringify([id, sameButton(label), occurrence]);
      const known = numbers.get(key);
      if (known !== undefined) return known;
      counter += 1;
      numbers.set(key, counter);
      return counter;
    });
    for (const c of rendered.choices) choices.set(c.n, c);
    write(edited ? `(${t(locale, 'chat.terminal.updated')})\n${rendered.text}` : rendered.text);
    write('');
  };
  const channel: Channel = {
    name: 'terminal',
    transient: true,
    async send(reply) {
      messages += 1;
      const ref: SentRef = { chatId: 'terminal', messageId: String(messages) };
      const { files, ...rest } = reply;
      if (rest.text !== undefined || rest.card !== undefined || rest.buttons !== undefined)
        show(rest, ref.messageId, false);
      if (files && files.length > 0) {
        const paths = await writeFiles(deps.filesDir ?? process.cwd(), files);
        for (const path of paths) write(t(locale, 'chat.terminal.file_saved', { path }));
        write('');
      }
      return ref;
    },
    async edit(ref, reply) {
      for (const [n, c] of choices) if (c.messageId === ref.messageId) choices.delete(n);
      show(reply, ref.messageId, true);
    },
    async clearButtons(ref) {
      for (const [n, c] of choices) if (c.messageId === ref.messageId) choices.delete(n);
    },
    async typing() {},
    // The answer is printed piece by piece as the model writes it; the finished text is not repeated.
    live() {
      let streamed = false;
      let shown = '';
      const ref = (): SentRef => {
        messages += 1;
        return { chatId: 'terminal', messageId: String(messages) };
      };
      return {
        write(delta) {
          if (delta === '') return;
          if (!streamed) deps.logs?.hold();
          streamed = true;
          shown += delta;
          deps.output.write(delta);
        },
        async finish(text) {
          if (streamed) {
            // What the finished answer adds to the streamed words (a cut answer's "…").
            const rest = text.startsWith(shown.trimEnd()) ? text.slice(shown.trimEnd().length) : '';
            write(`${rest}\n`);
            deps.logs?.release();
            return ref();
          }
          if (text.trim() === '') return null;
          write(`${text}\n`);
          return ref();
        },
        async abort() {
          if (streamed) write('\n');
          deps.logs?.release();
        },
      };
    },
    async notice(text) {
      write(`ℹ️  ${text}\n`);
    },
    deepLink: () => null,
  };

  if (deps.channels) {
    deps.channels.register(terminalAdapter(deps.actor.memberId, channel));
    await deps.channels.start('terminal');
  }
  write(t(deps.actor.locale, 'chat.terminal.intro'));
  const lines = createInterface({ input: deps.input, terminal: false, crlfDelay: Infinity });
  for await (const raw of lines) {
    const line = raw.trim();
    if (line.length === 0) continue;
    if (QUIT.has(line.toLowerCase())) break;
    await refreshLocale();
    // A number presses a button, unless the bot asked a question ("How much does it cost?").
    const numbered = /^\d+$/.test(line) && !(await engine.awaitsAnswer(conv));
    const choice = numbered ? choices.get(Number(line)) : undefined;
    if (numbered && !choice) {
      write(`${t(locale, 'chat.terminal.no_choice', { n: line })}\n`);
      continue;
    }
    if (choice) {
      await engine.handle(
        conv,
        {
          kind: 'press',
          payload: choice.payload,
          message: { chatId: 'terminal', messageId: choice.messageId },
        },
        channel,
      );
      continue;
    }
    // `/file PATH`: a file from this machine, as a member sends one in a chat (a statement).
    const fileCommand = /^\/?file(?:\s+(.+))?$/i.exec(line);
    if (fileCommand) {
      const path = (fileCommand[1] ?? '').trim().replace(/^(["'])(.*)\1$/, '$2');
      if (path === '') {
        write(`${t(locale, 'chat.terminal.file_usage')}\n`);
        continue;
      }
      let size: number;
      try {
        size = (await stat(path)).size;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        write(`${t(locale, 'chat.terminal.file_unreadable', { path, reason })}\n`);
        continue;
      }
      const file = { name: basename(path), size, download: async () => readFile(path) };
      await engine.handle(conv, { kind: 'file', file, caption: '' }, channel);
      continue;
    }
    // Commands may be typed without their slash: "list" is "/list".
    const text =
      !line.startsWith('/') &&
      /^[a-z]+(\s|$)/.test(line) &&
      engine.commandMenu(locale, 'private').some((c) => line.split(/\s/)[0] === c.command)
        ? `/${line}`
        : line;
    await engine.handle(conv, { kind: 'text', text }, channel);
    // The terminal's own command, after the engine's list.
    if (/^\/help\b/.test(text)) write(`${t(locale, 'chat.terminal.file_usage')}\n`);
  }
  lines.close();
}

/**
 * The open session as a registry channel: it reaches the one member at the keyboard, and prints
 * what is delivered like any message (its buttons numbered, answerable in the session).
 */
function terminalAdapter(memberId: string | null, channel: Channel): ChannelAdapter {
  return {
    name: 'terminal',
    reach: { local: (id) => memberId !== null && id === memberId },
    start: async () => undefined,
    stop: async () => undefined,
    async deliver(_to, reply) {
      await channel.send(reply);
    },
  };
}
