import type { ChatEngine } from '../../core/chat/index.ts';

/** What every Telegram feature needs. */
export interface FeatureDeps {
  engine: ChatEngine;
  log: (message: string, error?: unknown) => void;
}
