import type { Actor } from '../../core/kernel/actor.ts';
import { createTestHousehold, type TestHousehold } from '../helpers/testCore.ts';

/** A household with something of everything, and the ids sample inputs refer to. */
export interface Seed {
  h: TestHousehold;
  owner: Actor;
  member: Actor;
  memberId: string;
  netflix: string;
  spotify: string;
  privateGym: string;
  streaming: string;
  music: string;
  visa: string;
  family: string;
  paused: string;
  paidDate: string;
  /** The newest audit entry: Spotify's price rise. */
  lastAuditId: string;
}

export async function seedHousehold(): Promise<Seed> {
  const h = await createTestHousehold();
  const owner = h.owner;
  const member = await h.addMember('Luis', 'es');
  const netflix = await h.core.invoke('create_subscription', owner, {
    name: 'Netflix',
    amount: '15.99',
    first_charge_date: '2025-01-05',
    category: 'Streaming',
    payment_method: 'Visa',
    tags: ['family'],
    shares: [
      { member_id: owner.memberId, percent: '50' },
      { member_id: member.memberId, percent: '50' },
    ],
  });
  const spotify = await h.core.invoke('create_subscription', owner, {
    name: 'Spotify',
    amount: '10.99',
    first_charge_date: '2025-06-12',
    category: 'Music',
    notes: 'Family plan',
  });
  const gym = await h.core.invoke('create_subscription', member, {
    name: 'Gym',
    amount: '39.90',
    first_charge_date: '2025-09-01',
    private: true,
  });
  const paid = await h.core.invoke('mark_charge_paid', owner, {
    subscription_id: netflix.output.id,
    due_date: '2026-02-05',
  });
  const paused = await h.core.invoke('create_subscription', owner, {
    name: 'The Guardian',
    amount: '12',
    first_charge_date: '2025-11-19',
  });
  await h.core.invoke('pause_subscription', owner, { id: paused.output.id });
  const rise = await h.core.invoke('update_subscription', owner, {
    id: spotify.output.id,
    amount: '11.99',
    price_effective_date: '2026-01-12',
  });
  const streaming = netflix.output.category?.id ?? '';
  const music = spotify.output.category?.id ?? '';
  const visa = netflix.output.payment_method?.id ?? '';
  const family = netflix.output.tags[0]?.id ?? '';
  return {
    h,
    owner,
    member,
    memberId: member.memberId ?? '',
    netflix: netflix.output.id,
    spotify: spotify.output.id,
    privateGym: gym.output.id,
    streaming,
    music,
    visa,
    family,
    paused: paused.output.id,
    paidDate: paid.output.due_date,
    lastAuditId: rise.auditId ?? '',
  };
}
