import type { ChangeEvent } from '../../kernel/events.ts';
import type { Core } from '../../kernel/core.ts';
import { localeFrom, t } from '../../i18n/index.ts';
import { offers } from '../../kernel/surface.ts';
import { defineFeature } from '../feature.ts';
import { formatInstant } from '../format.ts';
import { firstTime } from '../once.ts';
import { ReplyBuilder } from '../reply.ts';
import type { Reply, SentRef } from '../types.ts';
import type { Turn } from '../turn.ts';
import { change } from './changes.ts';
import { proposeChange } from './pendingCard.ts';

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

interface AppView {
  id: string;
  client_name: string;
  scope: string;
  member_id: string;
  connected_at: string;
  last_used_at: string | null;
}

/**
 * `/apps`: the remote agents connected to the speaker's account (every member's for the owner,
 * each then named with its member): client, access, when connected and last used, each with
 * Disconnect, previewed first as revoking a token is, and undoable.
 */
async function apps(turn: Turn): Promise<void> {
  const { output } = await turn.invoke('list_connected_apps', {});
  const items = (output as { items: AppView[] }).items;
  const others = items.some((app) => app.member_id !== turn.actor.memberId);
  const names = others ? await memberNames(turn) : new Map<string, string>();
  const timeZone = await turn.timeZone();
  const day = (iso: string): string => formatInstant(iso, turn.locale, timeZone, { time: false });
  const reply = turn.reply().setCard({
    title: `🔗 ${turn.t('oauth.apps.title', { count: items.length })}`,
    lines:
      items.length > 0
        ? items.map((app) =>
            [
              `• ${app.client_name}`,
              turn.t(`chat.token.scope.${app.scope}`),
              turn.t('oauth.apps.connected', { date: day(app.connected_at) }),
              app.last_used_at
                ? turn.t('oauth.apps.used', { date: day(app.last_used_at) })
                : turn.t('oauth.apps.unused'),
              ...(others ? [names.get(app.member_id) ?? '?'] : []),
            ].join(' · '),
          )
        : [turn.t('oauth.apps.none')],
  });
  if (turn.hasOp('disconnect_app') && offers(turn.core.op('disconnect_app'), turn.actor, 'chat'))
    for (const app of items)
      reply.row(
        reply.action(turn.t('oauth.apps.disconnect', { name: app.client_name }), {
          t: 'app_disconnect',
          id: app.id,
        }),
      );
  await turn.send(reply);
}

/** The household's members by id (the owner's /apps names whose app each is). */
async function memberNames(turn: Turn): Promise<Map<string, string>> {
  const { output } = await turn.invoke('list_members', {});
  const members = (output as { members: Array<{ id: string; name: string }> }).members;
  return new Map(members.map((m) => [m.id, m.name]));
}

async function disconnect(turn: Turn, app: string, ref: SentRef | null): Promise<void> {
  if (ref && turn.channel.clearButtons) await turn.channel.clearButtons(ref);
  await change(turn, 'disconnect_app', { id: app }, null);
}

/**
 * Remote agents: `/connect` for a code, `/apps` for the connected ones, and Disconnect on the "app
 * connected" message and on /apps (previewed there).
 */
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
    { command: 'apps', op: 'list_connected_apps', place: 'private', newcomer: false, run: apps },
  ],
  actions: {
    disconnect: (turn, action, ref) => disconnect(turn, action.app, ref),
    app_disconnect: (turn, action, ref) =>
      proposeChange(turn, 'disconnect_app', { id: action.id }, ref),
  },
  // The Disconnect buttons of the "app connected" message and of /apps.
  reaches: ['disconnect_app'],
});
