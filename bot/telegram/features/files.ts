import { type Api, Composer, type Context } from 'grammy';

import type { IncomingFile } from '../../../core/chat/index.ts';
import { addressedToBot, messageChannel, withoutMention } from '../address.ts';
import { conversationOf } from '../conversation.ts';
import type { FeatureDeps } from '../deps.ts';

/** Downloads a file Telegram stored (up to 20 MB on the cloud Bot API). */
async function download(api: Api, deps: FeatureDeps, fileId: string): Promise<Uint8Array> {
  const file = await api.getFile(fileId);
  if (!file.file_path) throw new Error('Telegram gave no file path');
  const response = await fetch(deps.fileUrl(file.file_path));
  if (!response.ok) throw new Error(`downloading a Telegram file answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** The file of a photo or document message, fetched only if the engine uses it. */
function incomingFile(ctx: Context, deps: FeatureDeps): IncomingFile | null {
  const message = ctx.message;
  if (!message) return null;
  const photo = message.photo?.at(-1);
  if (photo)
    // Telegram re-encodes photos as JPEG; its largest size is the last.
    return {
      name: 'photo.jpg',
      mediaType: 'image/jpeg',
      size: photo.file_size ?? null,
      download: () => download(ctx.api, deps, photo.file_id),
    };
  const document = message.document;
  if (document)
    return {
      name: document.file_name,
      mediaType: document.mime_type,
      size: document.file_size ?? null,
      download: () => download(ctx.api, deps, document.file_id),
    };
  return null;
}

/**
 * Photos and documents (a statement PDF or CSV, a screenshot) go to the assistant with their
 * caption as the question: in private chats, and in groups when the caption mentions the bot,
 * the message replies to it, or the caption is a command (`/import`, as typed text is: a
 * command addressed to another bot, `/import@other_bot`, is not ours).
 */
export function filesFeature(deps: FeatureDeps): Composer<Context> {
  const composer = new Composer<Context>();
  composer.on(['message:photo', 'message:document'], async (ctx) => {
    const conv = conversationOf(ctx);
    const channel = messageChannel(ctx, deps);
    const file = incomingFile(ctx, deps);
    if (!conv || !channel || !file) return;
    let caption = ctx.message.caption ?? '';
    const mention = /^\/[A-Za-z0-9_]+@([A-Za-z0-9_]+)/.exec(caption);
    if (mention) {
      if (mention[1]?.toLowerCase() !== ctx.me.username.toLowerCase()) return;
      caption = caption.replace(`@${mention[1]}`, '');
    }
    const group = conv.where.kind === 'group';
    const addressed = !group || caption.startsWith('/') || addressedToBot(ctx);
    if (!addressed) return;
    caption = withoutMention(caption, ctx.me.username);
    await deps.engine.handle(conv, { kind: 'file', file, caption, addressed }, channel);
  });
  return composer;
}
