import type { Context } from 'hono';

import { type Core, opsFor } from '../../core/index.ts';
import type { WebAuth } from './auth.ts';

/** What `/api/me` says about the caller: the contract's `Me` (docs/miniapp.md). */
export interface MeOptions {
  core: Core;
  publicUrl?: string | undefined;
  botUsername?: (() => string | null) | undefined;
  /** Whether Slack is connected (an invite then says how to join from Slack). */
  slack?: (() => boolean) | undefined;
}

/**
 * The member, the household and the ops offered on web to the caller, read through the ops
 * themselves (`get_household`, `list_members`) on the web surface; shared by `GET /api/me` and
 * `POST /api/batch` (`me: true`), so both answer alike.
 */
export async function meOf(c: Context, who: WebAuth, options: MeOptions) {
  const { core } = options;
  const { actor, via, sessionId, fresh } = who;
  const [household, members] = await Promise.all([
    core.invoke('get_household', actor, {}, { surface: 'web', fresh }),
    core.invoke('list_members', actor, {}, { surface: 'web', fresh }),
  ]);
  // The Core here is typed over any catalog, so outputs are unknown: these are the ops' schemas.
  const h = household.output as {
    id: string;
    name: string;
    currency: string;
    time_zone: string;
    locale: string;
  };
  const list = members.output as { members: Array<{ id: string; name: string }> };
  const me = list.members.find((m) => m.id === actor.memberId);
  const base = options.publicUrl?.replace(/\/+$/, '') ?? new URL(c.req.url).origin;
  return {
    member: {
      id: actor.memberId,
      name: me?.name ?? '',
      role: actor.role ?? 'member',
      locale: actor.locale,
    },
    household: {
      id: h.id,
      name: h.name,
      currency: h.currency,
      timeZone: h.time_zone,
      locale: h.locale,
    },
    ops: opsFor(core.catalog, actor, 'web').map((op) => ({
      name: op.name,
      title: op.title,
      effect: op.effect,
      financial: typeof op.financial === 'function' ? 'depends' : op.financial === true,
    })),
    telegram: via === 'telegram',
    sessionId,
    publicUrl: base,
    botUsername: options.botUsername?.() ?? null,
    slack: options.slack?.() ?? false,
    mcpUrl: `${base}/mcp`,
  };
}
