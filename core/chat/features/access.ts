import { formatInstant } from '../format.ts';
import type { SentRef } from '../types.ts';
import type { Turn } from '../turn.ts';
import { defineFeature } from '../feature.ts';

/** `/invite`: a one-time invite (`create_invite`) as a deep link that opens the bot with `/start <code>`. */
export async function createInviteLink(turn: Turn): Promise<void> {
  const result = await turn.invoke('create_invite', {});
  const out = result.output as { code: string; expires_at: string };
  const link = turn.channel.deepLink(out.code);
  const reply = turn.reply();
  reply.setCard({
    title: `✉️ ${turn.t('chat.invite.title')}`,
    lines: [
      link ? turn.t('chat.invite.link', { link }) : turn.t('chat.invite.code', { code: out.code }),
      turn.t('chat.invite.expires', {
        date: formatInstant(out.expires_at, turn.locale, await turn.timeZone()),
      }),
    ],
  });
  if (link) reply.row(reply.url(turn.t('chat.button.share_invite'), link));
  if (result.auditId)
    reply.row(reply.action(turn.t('chat.button.revoke'), { t: 'undo', audit: result.auditId }));
  await turn.send(reply);
}

const SCOPES = ['read', 'write', 'trusted'] as const;

/** `/token [name]`: asks which access the agent gets, then creates it with `create_token`. */
export async function startToken(turn: Turn, args: string): Promise<void> {
  const name = args.trim().slice(0, 80) || turn.t('chat.token.default_name');
  const reply = turn.reply();
  reply.say(turn.t('chat.token.ask_scope', { name }));
  for (const scope of SCOPES)
    reply.say(
      `• ${turn.t(`chat.token.scope.${scope}`)}: ${turn.t(`chat.token.scope_help.${scope}`)}`,
    );
  reply.row(
    ...SCOPES.map((scope) =>
      reply.action(turn.t(`chat.token.scope.${scope}`), { t: 'token', scope, name }),
    ),
  );
  await turn.send(reply);
}

/** The scope button: creates the token and shows it once, with Undo (which revokes it). */
export async function pressToken(
  turn: Turn,
  scope: (typeof SCOPES)[number],
  name: string,
  ref: SentRef | null,
): Promise<void> {
  const result = await turn.invoke('create_token', { name, scope });
  const out = result.output as { token: string; name: string; scope: string };
  const reply = turn.reply();
  reply.setCard({
    title: `🔑 ${turn.t('chat.token.title', { name: out.name })}`,
    lines: [
      turn.t('chat.token.scope_line', { scope: turn.t(`chat.token.scope.${out.scope}`) }),
      // A terminal has no message to delete: only "copy it now".
      turn.t(turn.channel.transient ? 'chat.token.once_transient' : 'chat.token.once'),
    ],
    code: out.token,
  });
  if (result.auditId)
    reply.row(reply.action(turn.t('chat.button.revoke'), { t: 'undo', audit: result.auditId }));
  await turn.update(ref, reply);
}

/** Letting others in: invite links for people, tokens for agents (both private: they are secrets). */
export const accessFeature = defineFeature({
  name: 'access',
  commands: [
    {
      command: 'invite',
      op: 'create_invite',
      place: 'private',
      newcomer: false,
      run: createInviteLink,
    },
    { command: 'token', op: 'create_token', place: 'private', newcomer: false, run: startToken },
  ],
  actions: {
    token: (turn, action, ref) => pressToken(turn, action.scope, action.name, ref),
  },
});
