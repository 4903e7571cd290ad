import { type Locale, t, type TextParams } from '../i18n/index.ts';
import type { ChannelWords } from './types.ts';

/**
 * The `{group}`/`{groups}` parameters of texts that name a group chat, in the channel's own word:
 * "this group" on Telegram, "this channel" on Slack. Every text the engine renders gets them, so
 * a text only writes `{group}` (the word is masculine in Spanish either way: "este grupo/canal").
 */
export function groupWords(locale: Locale, words: ChannelWords | undefined): TextParams {
  const kind = words?.group ?? 'group';
  return {
    group: t(locale, `chat.polish.word.${kind}`),
    groups: t(locale, `chat.polish.word.${kind}s`),
  };
}

/** A command as a person types it on the channel: `/add` on Telegram, `/exhale add` on Slack. */
export function commandText(words: ChannelWords | undefined, name: string): string {
  return `${words?.commandPrefix ?? '/'}${name}`;
}

/** How a command menu is written: in the channel's words; only what a person without a household may use. */
export interface MenuOptions {
  words?: ChannelWords | undefined;
  newcomer?: boolean;
}
