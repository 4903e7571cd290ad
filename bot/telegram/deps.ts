import type { ChatEngine } from '../../core/chat/index.ts';
import type { StreamingOptions } from './live.ts';

/** What every Telegram feature needs. */
export interface FeatureDeps {
  engine: ChatEngine;
  log: (message: string, error?: unknown) => void;
  /** How often a live answer may update Telegram. */
  streaming: StreamingOptions;
  /** The download URL of a file Telegram stored (`getFile`'s `file_path`). */
  fileUrl(path: string): string;
}
