import { ref } from 'vue';

import { telegramInitData } from './api.ts';

/**
 * Live changes: `GET /api/events` (server-sent events) announces every change in the household,
 * whichever process, surface or agent made it. Each burst bumps `liveTick` once (debounced), and
 * the open screen refetches its data.
 */
export const liveTick = ref(0);
let source: EventSource | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;

export function startLive(): void {
  if (source) return;
  const raw = telegramInitData();
  const url = raw ? `/api/events?tma=${encodeURIComponent(raw)}` : '/api/events';
  source = new EventSource(url, { withCredentials: true });
  source.addEventListener('change', () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      liveTick.value += 1;
    }, 150);
  });
}

export function stopLive(): void {
  source?.close();
  source = null;
}
