import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';

import { OpError } from '../../core/index.ts';
import type { ChatEngine, Channel, Conversation, Reply, SentRef } from '../../core/chat/index.ts';
import { authenticate } from './auth.ts';
import type { ApiContext } from './routes.ts';
import type { RouteGroup } from '../../bot/http/app.ts';

const ChatBody = z.union([
  z.object({ text: z.string().min(1).max(4000) }).strict(),
  z
    .object({
      press: z.string().min(1).max(64),
      ref: z.string().max(64).optional(),
    })
    .strict(),
]);

/** A message as the app receives it (the engine's Reply, with the ref it can edit or press on). */
function wire(ref: string, reply: Reply): Record<string, unknown> {
  return {
    ref,
    ...(reply.text !== undefined ? { text: reply.text } : {}),
    ...(reply.card ? { card: { title: reply.card.title, lines: reply.card.lines } } : {}),
    ...(reply.buttons ? { buttons: reply.buttons } : {}),
  };
}

/**
 * `POST /api/chat`: the Ask screen is the chat engine itself, on the `web` channel: the same
 * commands, cards, Confirm/Discard and Undo as Telegram, one engine. One event in (`text`, or a
 * button's `press` with the `ref` of the message it was on), the engine's output for it out as
 * server-sent events: `live` (deltas while the assistant writes), `message`, `edit`, `notice`,
 * then `done`. Message refs are per member (`web:<member>:<n>`); an edit names the ref it replaces.
 */
export function chatRoutes(group: RouteGroup, context: ApiContext, engine: ChatEngine): void {
  // `GET /api/chat`: what the empty Ask screen suggests: whether free text reaches the assistant,
  // and the commands that work on the web channel (the engine's own list, the member's language).
  group.get('/chat', async (c: Context) => {
    const { actor } = await authenticate(c, context.auth);
    const assistant = actor.householdId ? await engine.assistantOn(actor.householdId) : false;
    return c.json({ assistant, commands: engine.commandMenu(actor.locale, 'private', 'web') });
  });
  group.post('/chat', async (c: Context) => {
    const { actor } = await authenticate(c, context.auth);
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      throw new OpError('invalid_input', 'web.chat.body');
    }
    const body = ChatBody.safeParse(raw);
    if (!body.success) throw new OpError('invalid_input', 'web.chat.body');
    const chatId = `web:${actor.memberId ?? ''}`;
    const conv: Conversation = {
      who: { channel: 'web', externalId: null, displayName: '', actor },
      where: { kind: 'private', chatId },
    };
    return streamSSE(c, async (stream) => {
      let sent = 0;
      const emit = (event: string, data: unknown) =>
        stream.writeSSE({ event, data: JSON.stringify(data) });
      const newRef = (): SentRef => {
        sent += 1;
        return { chatId, messageId: `${Date.now().toString(36)}${sent}` };
      };
      const channel: Channel = {
        name: 'web',
        async send(reply) {
          const ref = newRef();
          await emit('message', wire(ref.messageId, reply));
          return ref;
        },
        async edit(ref, reply) {
          await emit('edit', wire(ref.messageId, reply));
        },
        async clearButtons(ref) {
          await emit('edit', { ref: ref.messageId, buttons: [] });
        },
        async typing() {},
        async notice(text) {
          await emit('notice', { text });
        },
        deepLink: () => null,
        live() {
          return {
            write: (delta) => void emit('live', { delta }),
            finish: async (text) => {
              if (text === '') return null;
              const ref = newRef();
              await emit('message', { ref: ref.messageId, text });
              return ref;
            },
            abort: async () => {},
          };
        },
      };
      const event =
        'text' in body.data
          ? { kind: 'text' as const, text: body.data.text }
          : {
              kind: 'press' as const,
              payload: body.data.press,
              message: body.data.ref ? { chatId, messageId: body.data.ref } : null,
            };
      await engine.handle(conv, event, channel);
      await emit('done', {});
    });
  });
}
