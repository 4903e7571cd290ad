import { startWebSession } from '../../core/auth/webSessions.ts';
import type { Actor } from '../../core/kernel/actor.ts';
import type { Seed } from './seed.ts';

/**
 * A realistic call of every write op against the seeded household: who calls it and with what.
 * The catalog-wide contract tests run each one; a write op missing here fails the suite, so a new
 * op cannot skip the dry-run and undo guarantees.
 */
export interface Sample {
  /** Who calls it: the owner by default, or a newcomer without a household. */
  actor?: Actor;
  newcomer?: boolean;
  input: unknown;
}

export const WRITE_SAMPLES: Record<string, (s: Seed) => Sample | Promise<Sample>> = {
  create_household: () => ({
    newcomer: true,
    input: {
      name: 'Second home',
      currency: 'USD',
      time_zone: 'America/New_York',
      owner_name: 'Kim',
    },
  }),
  update_household: () => ({
    input: { name: 'Renamed', currency: 'GBP', time_zone: 'Europe/London' },
  }),
  create_invite: () => ({ input: { expires_in_days: 3 } }),
  join_household: async (s) => {
    const invite = await s.h.core.invoke('create_invite', s.owner, {});
    return { newcomer: true, input: { code: invite.output.code, name: 'Zoe' } };
  },
  update_member: (s) => ({
    input: { id: s.memberId, name: 'Luis M.', reminder_offsets: [7, 1], reminder_time: '08:30' },
  }),
  remove_member: (s) => ({ input: { id: s.memberId } }),
  create_subscription: () => ({
    input: {
      name: 'Max',
      amount: '9.99',
      status: 'trial',
      trial_ends_on: '2026-03-09',
      first_charge_date: '2026-03-09',
      category: 'New category',
      tags: ['family', 'new tag'],
    },
  }),
  update_subscription: (s) => ({
    input: {
      id: s.netflix,
      amount: '17.99',
      category_id: s.music,
      tags: ['kids'],
      notes: 'Price went up',
    },
  }),
  pause_subscription: (s) => ({ input: { id: s.netflix } }),
  resume_subscription: (s) => ({ input: { id: s.paused } }),
  cancel_subscription: (s) => ({ input: { id: s.spotify, effective_date: '2026-03-01' } }),
  delete_subscription: (s) => ({ input: { id: s.netflix } }),
  bulk_update_subscriptions: (s) => ({
    input: {
      ids: [s.netflix, s.spotify],
      change: { action: 'add_tags', tags: ['shared', 'family'] },
    },
  }),
  mark_charge_paid: (s) => ({
    input: { subscription_id: s.spotify, due_date: '2026-02-12', amount: '12.50' },
  }),
  skip_charge: (s) => ({ input: { subscription_id: s.netflix, due_date: s.paidDate } }),
  mark_charges_paid: (s) => ({
    input: {
      charges: [
        { subscription_id: s.spotify, charge_date: '2026-01-12', amount: '11.99' },
        { subscription_id: s.netflix, charge_date: '2026-01-05', amount: '15.99', currency: 'EUR' },
      ],
    },
  }),
  undo: (s) => ({ input: { ids: [s.lastAuditId] } }),
  create_category: () => ({ input: { name: 'Software', color: '#336699' } }),
  update_category: (s) => ({ input: { id: s.streaming, name: 'Video', color: '#FF0000' } }),
  delete_category: (s) => ({ input: { id: s.streaming, reassign_to: s.music } }),
  merge_categories: (s) => ({ input: { source_ids: [s.streaming], target_id: s.music } }),
  create_payment_method: () => ({ input: { name: 'Joint account', kind: 'bank', last4: '1234' } }),
  update_payment_method: (s) => ({
    input: { id: s.visa, name: 'Old Visa', kind: 'card', last4: '4242' },
  }),
  delete_payment_method: (s) => ({ input: { id: s.visa } }),
  create_tag: () => ({ input: { name: 'work' } }),
  rename_tag: (s) => ({ input: { id: s.family, name: 'home' } }),
  delete_tag: (s) => ({ input: { id: s.family } }),
  create_token: () => ({ input: { name: 'Claude Desktop', scope: 'write' } }),
  revoke_token: async (s) => {
    const token = await s.h.core.invoke('create_token', s.owner, { name: 'Old agent' });
    return { input: { id: token.output.id } };
  },
  create_sign_in_link: () => ({ input: {} }),
  create_connect_code: () => ({ input: {} }),
  connect_app: () => ({
    input: {
      client: 'https://claude.ai/oauth/mcp-oauth-client-metadata',
      client_name: 'Claude',
      scope: 'write',
      resource: 'http://localhost:8080/mcp',
    },
  }),
  list_connected_apps: () => ({ input: {} }),
  disconnect_app: async (s) => {
    const app = await s.h.core.invoke('connect_app', s.owner, {
      client: 'exhale_0123',
      client_name: 'Old app',
      scope: 'read',
      resource: 'http://localhost:8080/mcp',
    });
    return { input: { id: app.output.id } };
  },
  end_web_session: async (s) => {
    // A browser signed in (sessions start by redeeming a code, outside any op).
    const id = s.h.core.newId('wss');
    await s.h.core.db.knex.transaction((trx) =>
      startWebSession(trx, {
        id,
        householdId: s.owner.householdId ?? '',
        memberId: s.owner.memberId ?? '',
        userAgent: 'Firefox',
        now: s.h.core.clock(),
      }),
    );
    return { input: { id } };
  },
  create_calendar_feed: () => ({ input: {} }),
  revoke_calendar_feed: async (s) => {
    await s.h.core.invoke('create_calendar_feed', s.owner, {});
    return { input: {} };
  },
  update_assistant_settings: () => ({
    input: {
      provider: 'openai',
      model: 'gpt-4.1-mini',
      base_url: 'http://localhost:11434',
      api_key: 'sk-sample',
      prices: { 'gpt-4.1-mini': { input: '0.40', output: '1.60' } },
    },
  }),
  set_exchange_rate: () => ({ input: { currency: 'USD', rate: '1.0939', date: '2026-03-02' } }),
  import_data: () => ({
    input: {
      document: {
        format: 'exhale/1',
        subscriptions: [
          {
            name: 'Tidal',
            amount: '10.99',
            currency: 'EUR',
            cycle: { unit: 'month', every: 1 },
            first_charge_date: '2026-02-10',
            category: 'Music',
            tags: ['family', 'hifi'],
            charges: [{ due_date: '2026-02-10', status: 'paid', amount: '10.99' }],
          },
          {
            name: 'Netflix',
            amount: '15.99',
            currency: 'EUR',
            cycle: { unit: 'month', every: 1 },
            first_charge_date: '2025-01-05',
          },
        ],
      },
    },
  }),
  import_candidates: () => ({
    input: {
      file_name: 'statement.csv',
      content: SAMPLE_STATEMENT,
      candidates: ['disney-plus:month:1'],
    },
  }),
};

/** A small bank CSV with one monthly subscription (Disney Plus) among other spending. */
export const SAMPLE_STATEMENT = [
  'Date,Description,Amount',
  '2025-11-03,DISNEY PLUS 20001,-8.99',
  '2025-11-12,LIDL DANKT 0391,-23.50',
  '2025-12-03,DISNEY PLUS 20002,-8.99',
  '2025-12-20,IKEA 4411,-120.00',
  '2026-01-05,DISNEY PLUS 20003,-8.99',
  '2026-01-27,ACME GMBH GEHALT,2500.00',
  '2026-02-03,DISNEY PLUS 20004,-8.99',
].join('\n');

/** Valid inputs for read ops that have required fields (the others are called with `{}`). */
export const READ_SAMPLES: Record<string, (s: Seed) => unknown> = {
  read_statement: () => ({ file_name: 'statement.csv', content: SAMPLE_STATEMENT }),
  reconcile_statement: () => ({ file_name: 'statement.csv', content: SAMPLE_STATEMENT }),
  get_subscription: (s) => ({ id: s.netflix }),
  list_subscriptions: (s) => ({
    category_id: s.streaming,
    tag_id: s.family,
    payment_method_id: s.visa,
    member_id: s.owner.memberId,
  }),
  list_activity: (s) => ({ member_id: s.owner.memberId, before: s.lastAuditId }),
  list_charges: (s) => ({ from: '2026-01-01', to: '2026-03-31', subscription_id: s.netflix }),
  list_price_changes: (s) => ({ subscription_id: s.spotify }),
};
