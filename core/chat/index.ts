// The chat engine's public surface for channel adapters (bot/telegram, bot/terminal, bot/slack).
export type { Action, AddDraft } from './actions.ts';
export type { CommandSpec } from './commands.ts';
export type { ChatFeature } from './feature.ts';
export { defineFeature } from './feature.ts';
export { FEATURES } from './features/index.ts';
export type { ChatEngineOptions } from './engine.ts';
export type { ChatAssistant } from './types.ts';
export { ChatEngine } from './engine.ts';
export { purgeExpiredFlows } from './flows.ts';
export { agentNotice, reminderReply } from './features/notices.ts';
export { firstTime, purgeFirstTimes } from './once.ts';
export { resolveSpeaker } from './identity.ts';
/** A chat statement review's file, for the web app's review of the same statement. */
export { reviewFile } from './statementFlow.ts';
/** How chat writes amounts, dates and cycles for a reader: for adapters that print outside the engine. */
export { cycleText, formatDate, money } from './format.ts';
export { reconcileLines } from './reconcileCard.ts';
/** A total's "left out, with no exchange rate" sentence, for adapters that show totals outside the engine. */
export { LEFT_OUT_NAMED, leftOutSentence } from './features/conversion.ts';
export type {
  Button,
  Card,
  Channel,
  ChannelWords,
  ChatEvent,
  Conversation,
  IncomingFile,
  LiveText,
  Person,
  Place,
  Reply,
  ReplyFile,
  SentRef,
} from './types.ts';
// A statement's reading steps as a progress line (`exhale import` on a terminal).
export { readStepText } from './progress.ts';
