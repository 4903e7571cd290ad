import type { z } from 'zod';

import type { undo } from '../../../core/ops/activity/undo.ts';
import type { listActivity } from '../../../core/ops/activity/listActivity.ts';
import type { getAssistantSettings } from '../../../core/ops/assistant/getAssistantSettings.ts';
import type { listCharges } from '../../../core/ops/charges/listCharges.ts';
import type { listPriceChanges } from '../../../core/ops/charges/listPriceChanges.ts';
import type { createInvite } from '../../../core/ops/household/createInvite.ts';
import type { getHousehold } from '../../../core/ops/household/getHousehold.ts';
import type { listMembers } from '../../../core/ops/household/listMembers.ts';
import type { updateHousehold } from '../../../core/ops/household/updateHousehold.ts';
import type { updateMember } from '../../../core/ops/household/updateMember.ts';
import type { findSavings } from '../../../core/ops/insights/findSavings.ts';
import type { getContext } from '../../../core/ops/insights/getContext.ts';
import type { getTotals } from '../../../core/ops/insights/getTotals.ts';
import type { getUpcoming } from '../../../core/ops/insights/getUpcoming.ts';
import type { listExchangeRates } from '../../../core/ops/insights/listExchangeRates.ts';
import type { listCategories } from '../../../core/ops/organize/listCategories.ts';
import type { listPaymentMethods } from '../../../core/ops/organize/listPaymentMethods.ts';
import type { listTags } from '../../../core/ops/organize/listTags.ts';
import type { StatementSummary } from '../../../core/ops/statements/_lib/schemas.ts';
import type { createSubscription } from '../../../core/ops/subscriptions/createSubscription.ts';
import type { getSubscription } from '../../../core/ops/subscriptions/getSubscription.ts';
import type { listSubscriptions } from '../../../core/ops/subscriptions/listSubscriptions.ts';
import type { updateSubscription } from '../../../core/ops/subscriptions/updateSubscription.ts';
import type { createToken } from '../../../core/ops/tokens/createToken.ts';
import type { listTokens } from '../../../core/ops/tokens/listTokens.ts';
import type { listWebSessions } from '../../../core/ops/web/listWebSessions.ts';

/**
 * The shapes of the ops the app calls, from their zod schemas (type-only imports: nothing of
 * core/ reaches the bundle), so the app reads what the server answers with. Ops are imported one
 * by one rather than through the catalog, so `tsc -p miniapp` checks the app without the
 * server-only parts of core (knex's SQLite client, the OCR canvas).
 */
type Ops = [
  typeof undo,
  typeof listActivity,
  typeof getAssistantSettings,
  typeof listCharges,
  typeof listPriceChanges,
  typeof createInvite,
  typeof getHousehold,
  typeof listMembers,
  typeof updateHousehold,
  typeof updateMember,
  typeof findSavings,
  typeof getContext,
  typeof getTotals,
  typeof getUpcoming,
  typeof listExchangeRates,
  typeof listCategories,
  typeof listPaymentMethods,
  typeof listTags,
  typeof createSubscription,
  typeof getSubscription,
  typeof listSubscriptions,
  typeof updateSubscription,
  typeof createToken,
  typeof listTokens,
  typeof listWebSessions,
];
type Op = Ops[number];
export type OpName = Op['name'];
export type Out<N extends OpName> = z.output<Extract<Op, { name: N }>['output']>;
export type In<N extends OpName> = z.input<Extract<Op, { name: N }>['input']>;

export type Subscription = Out<'get_subscription'>;
export type Statement = StatementSummary;

/** `GET /api/me` (docs/miniapp.md). */
export interface Me {
  member: { id: string; name: string; role: 'owner' | 'member'; locale: 'en' | 'es' };
  household: { id: string; name: string; currency: string; timeZone: string; locale: string };
  ops: {
    name: string;
    title: string;
    effect: 'read' | 'write' | 'destructive';
    financial: boolean | 'depends';
  }[];
  telegram: boolean;
  /** The cookie's web session (null inside Telegram): Settings marks "this browser". */
  sessionId: string | null;
  publicUrl: string;
  botUsername: string | null;
  /** Whether Slack is connected to this server (an invite says how to join from Slack). */
  slack: boolean;
  mcpUrl: string;
}

/** The card Exhale writes for a pending change, and the pending change. */
export interface Card {
  title: string;
  lines: string[];
}
export interface Pending {
  id: string;
  card: Card;
  expiresAt: string;
}
export interface Confirmed {
  output: unknown;
  auditId: string | null;
  card: Card;
  undo: { auditId: string } | null;
}
export interface Issue {
  path: (string | number)[];
  message: string;
}
