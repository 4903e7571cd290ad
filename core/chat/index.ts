// The chat engine's public surface for channel adapters (bot/telegram, bot/terminal, bot/slack).
export type { Action, AddDraft } from './actions.ts';
export { availableCommands, commandMenu, COMMANDS } from './commands.ts';
export type { ChatAssistant, ChatEngineOptions } from './engine.ts';
export { ChatEngine } from './engine.ts';
export { purgeExpiredFlows } from './flows.ts';
export { agentNotice, reminderReply } from './features/notices.ts';
export { firstTime, purgeFirstTimes } from './once.ts';
export type {
  Button,
  Card,
  Channel,
  ChatEvent,
  Conversation,
  IncomingFile,
  LiveText,
  Person,
  Place,
  Reply,
  SentRef,
} from './types.ts';
