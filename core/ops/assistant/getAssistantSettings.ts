import { z } from 'zod';

import { loadStoredSettings, overridesFromEnv } from '../../store/repos/assistantSettings.ts';
import { defineOp } from '../../kernel/op.ts';
import { household } from '../shared/context.ts';
import { AssistantSettings, settingsView } from './_lib/view.ts';

export const getAssistantSettings = defineOp({
  name: 'get_assistant_settings',
  title: 'Get the assistant settings',
  description:
    'Shows how the built-in assistant is configured (provider, model, server, whether an API key is set: never the key) and what the environment overrides. Owner only.',
  input: z.object({}),
  output: AssistantSettings,
  effect: 'read',
  ownerOnly: true,
  idempotent: true,
  exclude: {
    assistant: 'The model settings are for the owner to manage, not a topic for the model.',
  },
  async run(ctx) {
    return settingsView(
      await loadStoredSettings(ctx.tx.trx, household(ctx).id),
      overridesFromEnv(),
    );
  },
});
