import type { ActionKind } from '../actions.ts';
import type { AwaitingKind, ChatFeature } from '../feature.ts';
import { accessFeature } from './access.ts';
import { activityFeature } from './activity.ts';
import { addFeature } from './add.ts';
import { assistantSetupFeature } from './assistantSetup.ts';
import { dataFilesFeature } from './dataFiles.ts';
import { organizeFeature } from './organize.ts';
import { pendingCardFeature } from './pendingCard.ts';
import { ratesFeature } from './rates.ts';
import { reconcileFeature } from './reconcile.ts';
import { connectFeature } from './connect.ts';
import { assistantFeature } from './assistantFeature.ts';
import { groupsFeature } from './groups.ts';
import { helpFeature } from './help.ts';
import { householdFeature } from './household.ts';
import { listsFeature } from './lists.ts';
import { noticesFeature } from './notices.ts';
import { onboardingFeature } from './onboarding.ts';
import { settingsFeature } from './settings.ts';
import { statementsFeature } from './statements.ts';
import { subscriptionCardFeature } from './subscriptionCard.ts';
import { subscriptionCommandsFeature } from './subscriptionCommands.ts';
import { subscriptionEditFeature } from './subscriptionEdit.ts';
import { webFeature } from './web.ts';

/**
 * Every chat feature, the only list the engine builds its tables from. The order is the command
 * menu's order (/help, Telegram's setMyCommands). Add a feature here and its commands, buttons and
 * answers work on every channel.
 */
export const FEATURES = [
  onboardingFeature,
  addFeature,
  listsFeature,
  subscriptionEditFeature,
  subscriptionCommandsFeature,
  subscriptionCardFeature,
  activityFeature,
  settingsFeature,
  accessFeature,
  webFeature,
  connectFeature,
  groupsFeature,
  organizeFeature,
  ratesFeature,
  dataFilesFeature,
  assistantSetupFeature,
  householdFeature,
  helpFeature,
  noticesFeature,
  assistantFeature,
  statementsFeature,
  reconcileFeature,
  pendingCardFeature,
] as const satisfies readonly ChatFeature[];

// === Every action kind and awaited answer has a feature (checked by the compiler)

type Feature = (typeof FEATURES)[number];
type KeysOf<F, P extends 'actions' | 'answers'> = F extends { readonly [Q in P]: infer T }
  ? keyof T
  : never;
type UnhandledActions = Exclude<ActionKind, KeysOf<Feature, 'actions'>>;
type UnhandledAnswers = Exclude<AwaitingKind, KeysOf<Feature, 'answers'>>;

// A kind added to `Action` or `Awaiting` without a handler makes these fail to compile, naming it.
const unhandledActions: [UnhandledActions] extends [never] ? null : UnhandledActions = null;
const unhandledAnswers: [UnhandledAnswers] extends [never] ? null : UnhandledAnswers = null;
void unhandledActions;
void unhandledAnswers;
