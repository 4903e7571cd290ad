import { computed, shallowRef } from 'vue';

import type { Me } from './types.ts';

/** Who is signed in (`GET /api/me`), for every screen. */
export const session = shallowRef<Me | null>(null);
export const currency = computed(() => session.value?.household.currency ?? 'EUR');
export const timeZone = computed(() => session.value?.household.timeZone ?? 'UTC');
export const isOwner = computed(() => session.value?.member.role === 'owner');

export function offers(name: string): boolean {
  return session.value?.ops.some((o) => o.name === name) ?? false;
}
