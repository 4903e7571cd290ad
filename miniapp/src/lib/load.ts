import { onMounted, ref, watch, type Ref } from 'vue';

import { ApiError } from './api.ts';
import { liveTick } from './live.ts';

/**
 * A screen's data: loaded on mount (skeleton), refetched quietly on every live change (the
 * numbers change in place), and the server's sentence when it fails.
 */
export interface Loaded<T> {
  data: Ref<T | null>;
  error: Ref<string | null>;
  loading: Ref<boolean>;
  reload: () => Promise<void>;
}

export function useLoad<T>(load: () => Promise<T>, opts: { live?: boolean } = {}): Loaded<T> {
  const data = ref<T | null>(null) as Ref<T | null>;
  const error = ref<string | null>(null);
  const loading = ref(true);
  let seq = 0;
  async function reload(): Promise<void> {
    const mine = ++seq;
    try {
      const value = await load();
      if (mine !== seq) return;
      data.value = value;
      error.value = null;
    } catch (e) {
      if (mine !== seq) return;
      error.value = e instanceof ApiError || e instanceof Error ? e.message : String(e);
    } finally {
      if (mine === seq) loading.value = false;
    }
  }
  onMounted(reload);
  if (opts.live !== false) watch(liveTick, () => void reload());
  return { data, error, loading, reload };
}
