import { defineFeature } from '../feature.ts';
import { setAwaiting } from '../flows.ts';
import type { Turn } from '../turn.ts';
import { showChange } from './changes.ts';

/**
 * /assistant: the owner turns the built-in assistant on from a private chat, with no model yet
 * (the command is private-only, so a group is told to use a private chat). A provider by button
 * (Anthropic, an OpenAI-compatible service, a local server such as Ollama or LM Studio), then
 * typed answers: the server's address where one is needed, the model, the key. Nothing is stored
 * until the last answer, in one update_assistant_settings call. The message holding the key is
 * deleted as soon as it is read, where the channel can (`Channel.deleteMessage`); the key is
 * never shown again. A test call then says whether it works. A member who is not the owner is
 * told who can do it.
 */

interface Settings {
  enabled: boolean;
  provider: 'anthropic' | 'openai' | null;
  model: string | null;
  base_url: string | null;
  api_key_set: boolean;
  from_environment: string[];
}

interface Member {
  name: string;
  role: string;
}

/** For a member who is not the owner: who is. */
async function notOwner(turn: Turn): Promise<void> {
  const { output } = await turn.invoke('list_members', {});
  const owner = (output as { members: Member[] }).members.find((m) => m.role === 'owner');
  await turn.say(turn.t('manage.assistant.owner_only', { owner: owner?.name ?? '—' }));
}

function isOwner(turn: Turn): boolean {
  return turn.actor.role === 'owner';
}

async function show(turn: Turn): Promise<void> {
  if (!isOwner(turn)) return notOwner(turn);
  const s = (await turn.invoke('get_assistant_settings', {})).output as Settings;
  const lines: string[] = [];
  if (s.enabled && s.provider && s.model) {
    lines.push(turn.t('manage.assistant.on', { provider: providerName(turn, s), model: s.model }));
    if (s.base_url) lines.push(turn.t('manage.assistant.server', { url: s.base_url }));
    lines.push(turn.t(s.api_key_set ? 'manage.assistant.key_set' : 'manage.assistant.no_key'));
  } else lines.push(turn.t('manage.assistant.off'));
  if (s.from_environment.length > 0)
    lines.push(turn.t('manage.assistant.env', { fields: s.from_environment.join(', ') }));
  const reply = turn.reply().setCard({ title: `🤖 ${turn.t('manage.assistant.title')}`, lines });
  reply.say(turn.t('manage.assistant.choose'));
  reply.row(
    reply.action('Anthropic', { t: 'as_provider', provider: 'anthropic' }),
    reply.action(turn.t('manage.assistant.openai'), { t: 'as_provider', provider: 'openai' }),
  );
  reply.row(
    reply.action(turn.t('manage.assistant.local'), { t: 'as_provider', provider: 'local' }),
  );
  if (s.enabled)
    reply.row(
      reply.action(turn.t('manage.assistant.test'), { t: 'as_test' }),
      reply.action(turn.t('manage.assistant.turn_off'), { t: 'as_off' }),
    );
  await turn.send(reply);
}

function providerName(turn: Turn, s: Settings): string {
  if (s.provider === 'anthropic') return 'Anthropic';
  return s.base_url && /localhost|127\.0\.0\.1|\[::1\]/.test(s.base_url)
    ? turn.t('manage.assistant.local')
    : turn.t('manage.assistant.openai');
}

async function chooseProvider(turn: Turn, provider: 'anthropic' | 'openai' | 'local') {
  if (!isOwner(turn)) return notOwner(turn);
  if (provider === 'anthropic') {
    await setAwaiting(
      turn.db,
      turn.conversationKey,
      turn.owner,
      { t: 'as_model', provider: 'anthropic', base_url: null, local: false },
      turn.now,
    );
    await turn.say(turn.t('manage.assistant.ask_model.anthropic'));
    return;
  }
  const local = provider === 'local';
  await setAwaiting(turn.db, turn.conversationKey, turn.owner, { t: 'as_url', local }, turn.now);
  await turn.say(
    turn.t(local ? 'manage.assistant.ask_url.local' : 'manage.assistant.ask_url.openai'),
  );
}

/** The server's address: http(s) only; "-" keeps the provider's own (OpenAI's). */
async function answerUrl(turn: Turn, local: boolean, text: string): Promise<void> {
  const typed = text.trim();
  const own = !local && /^(-|default|openai|por defecto)$/i.test(typed);
  let url: string | null = null;
  if (!own) {
    const candidate = /^[a-z]+:\/\//i.test(typed) ? typed : `http://${typed}`;
    let parsed: URL | null;
    try {
      parsed = new URL(candidate);
    } catch {
      parsed = null;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol)) {
      await setAwaiting(
        turn.db,
        turn.conversationKey,
        turn.owner,
        { t: 'as_url', local },
        turn.now,
      );
      await turn.say(`⚠️ ${turn.t('manage.assistant.bad_url', { url: typed })}`);
      return;
    }
    url = candidate;
  }
  await setAwaiting(
    turn.db,
    turn.conversationKey,
    turn.owner,
    { t: 'as_model', provider: 'openai', base_url: url, local },
    turn.now,
  );
  await turn.say(
    turn.t(local ? 'manage.assistant.ask_model.local' : 'manage.assistant.ask_model.openai'),
  );
}

async function answerModel(
  turn: Turn,
  awaiting: { provider: 'anthropic' | 'openai'; base_url: string | null; local: boolean },
  model: string,
): Promise<void> {
  if (awaiting.local) {
    await save(turn, {
      provider: awaiting.provider,
      model,
      base_url: awaiting.base_url,
      api_key: null,
    });
    return;
  }
  await setAwaiting(
    turn.db,
    turn.conversationKey,
    turn.owner,
    { t: 'as_key', provider: awaiting.provider, base_url: awaiting.base_url, model },
    turn.now,
  );
  await turn.say(turn.t('manage.assistant.ask_key'));
}

/** The key's message is deleted first, then the settings are stored in one call. */
async function answerKey(
  turn: Turn,
  awaiting: { provider: 'anthropic' | 'openai'; base_url: string | null; model: string },
  key: string,
): Promise<void> {
  const where = turn.incoming;
  let deleted = false;
  if (where && turn.channel.deleteMessage)
    deleted = await turn.channel.deleteMessage(where).catch(() => false);
  const note = turn.channel.transient
    ? null
    : turn.t(deleted ? 'manage.assistant.key_deleted' : 'manage.assistant.key_delete_yourself');
  await save(
    turn,
    {
      provider: awaiting.provider,
      model: awaiting.model,
      base_url: awaiting.base_url,
      api_key: key.trim(),
    },
    note,
  );
}

async function save(
  turn: Turn,
  input: {
    provider: 'anthropic' | 'openai';
    model: string;
    base_url: string | null;
    api_key: string | null;
  },
  note: string | null = null,
): Promise<void> {
  if (!isOwner(turn)) return notOwner(turn);
  const result = await turn.invoke('update_assistant_settings', input);
  const extra = [note, await testLine(turn)].filter((s): s is string => s !== null);
  await showChange(turn, 'update_assistant_settings', result, null, extra);
}

/** The test call's sentence: it works, or why not (the model's server said so). */
async function testLine(turn: Turn): Promise<string> {
  const assistant = turn.engine.assistant;
  if (!assistant?.check) return turn.t('manage.assistant.no_check');
  const checked = await assistant.check(turn.actor);
  return checked.ok
    ? `✅ ${turn.t('manage.assistant.works', { model: checked.model })}`
    : `⚠️ ${turn.t('manage.assistant.fails', { reason: checked.notice })}`;
}

async function test(turn: Turn): Promise<void> {
  if (!isOwner(turn)) return notOwner(turn);
  await turn.say(await turn.withTyping(() => testLine(turn)));
}

async function turnOff(turn: Turn): Promise<void> {
  if (!isOwner(turn)) return notOwner(turn);
  const result = await turn.invoke('update_assistant_settings', { provider: null, model: null });
  await showChange(turn, 'update_assistant_settings', result, null);
}

export const assistantSetupFeature = defineFeature({
  name: 'assistantSetup',
  commands: [
    {
      command: 'assistant',
      op: 'get_assistant_settings',
      place: 'private',
      newcomer: false,
      // The web app's Settings has the assistant (owner): typing it there means nothing.
      notOn: ['web'],
      run: show,
    },
  ],
  reaches: ['update_assistant_settings'],
  actions: {
    as_provider: (turn, action) => chooseProvider(turn, action.provider),
    as_test: (turn) => test(turn),
    as_off: (turn) => turnOff(turn),
  },
  answers: {
    as_url: (turn, awaiting, text) => answerUrl(turn, awaiting.local, text),
    as_model: (turn, awaiting, text) => answerModel(turn, awaiting, text),
    as_key: (turn, awaiting, text) => answerKey(turn, awaiting, text),
  },
});
