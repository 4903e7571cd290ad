import type { ChangeEvent } from '../../kernel/events.ts';
import type { Core } from '../../kernel/core.ts';
import { localeFrom, t } from '../../i18n/index.ts';
import { defineFeature } from '../feature.ts';
import { firstTime } from '../once.ts';
import { ReplyBuilder } from '../reply.ts';
import type { Reply, SentRef } from '../types.ts';
import type { Turn } from '../turn.ts';
import { change } from './changes.ts';

/**
 * `/connect`: a connect code (`create_connect_code`) for the consent page a remote agent opens
 * (Claude.ai, ChatGPT, Claude Desktop…), shown once in a private chat.
 */
export async function showConnectCode(turn: Turn): Promise<void> {
  const result = await turn.invoke('create_connect_code', {});
  const out = result.output as { code: string; expires_at: string };
  const reply = turn.reply();
  reply.setCard({
    title: `🔗 ${turn.t('oauth.connect.title')}`,
    lines: [turn.t('oauth.connect.steps'), turn.t('oauth.connect.expires')],
    code: out.code,
  });
  await turn.send(reply);
}

interface GrantRow {
  id: string;
  member_id: string;
  client_name: string;
  scope: string;
}

/**
 * The message a member gets when an app was connected to their account ("Claude.ai can now read
 * and change your subscriptions"), with Disconnect: sent once per grant, by the first process
 * with a channel that reaches the member. Null for any other change.
 */
export async function appConnectedNotice(
  core: Core,
  event: ChangeEvent,
  now: Date,
  reaches: (memberId: string) => Promise<boolean>,
): Promise<{ memberId: string; reply: Reply } | null> {
  if (event.op !== 'connect_app') return null;
  const grantId = event.entities.find((e) => e.table === 'oauth_grants')?.id;
  if (!grantId) return null;
  const grant = (await core.db
    .knex('oauth_grants')
    .where({ id: grantId })
    .first('id', 'member_id', 'client_name', 'scope')) as GrantRow | undefined;
  if (!grant) return null;
  // Only a process with a channel to the member takes the notice, and only once.
  if (!(await reaches(grant.member_id))) return null;
  if (!(await firstTime(core.db, `app-connected:${grantId}`, now))) return null;
  const member = (await core.db
    .knex('members')
    .where({ id: grant.member_id })
    .first('language')) as { language: string } | undefined;
  if (!member) return null;
  const locale = localeFrom(member.language);
  const scope = ['read', 'write', 'trusted'].includes(grant.scope) ? grant.scope : 'read';
  const reply = new ReplyBuilder().say(
    `🔗 ${t(locale, `oauth.notice.${scope}`, { client: grant.client_name })}`,
  );
  reply.row(reply.action(t(locale, 'oauth.button.disconnect'), { t: 'disconnect', app: grant.id }));
  return {
    memberId: grant.member_id,
    reply: await reply.build(
      core.db,
      { householdId: event.householdId, memberId: grant.member_id, who: null },
      now,
      core.newId,
    ),
  };
}

async function disconnect(turn: Turn, app: string, ref: SentRef | null): Promise<void> {
  if (ref && turn.channel.clearButtons) await turn.channel.clearButtons(ref);
  await change(turn, 'disconnect_app', { id: app }, null);
}

/** Remote agents: `/connect` for a code, and Disconnect on the "app connected" message. */
export const connectFeature = defineFeature({
  name: 'connect',
  commands: [
    {
      command: 'connect',
      op: 'create_connect_code',
      place: 'private',
      newcomer: false,
      run: showConnectCode,
    },
  ],
  actions: {
    disconnect: (turn, action, ref) => disconnect(turn, action.app, ref),
  },
  // The "app connected" message's Disconnect button.
  reaches: ['disconnect_app'],
});
