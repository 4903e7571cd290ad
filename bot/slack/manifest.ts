import { readFileSync } from 'node:fs';

import { EVENTS_PATH } from './paths.ts';

const PLACEHOLDER = `https://EXHALE_PUBLIC_URL${EVENTS_PATH}`;

/**
 * The app manifest (`bot/slack/manifest.yml`) ready to paste: every request URL is the public URL
 * with `/slack/events` (its path kept, for a proxy under a prefix). In Socket Mode Slack needs no
 * URL: the request URLs are left out and `socket_mode_enabled` is true.
 */
export function slackManifest(options: {
  publicUrl?: string | undefined;
  socket?: boolean;
}): string {
  const text = readFileSync(new URL('./manifest.yml', import.meta.url), 'utf8');
  if (options.socket)
    return text
      .split('\n')
      .filter((line) => !line.includes(PLACEHOLDER) || line.trimStart().startsWith('#'))
      .join('\n')
      .replace('socket_mode_enabled: false', 'socket_mode_enabled: true');
  if (!options.publicUrl) throw new Error('no public URL');
  const url = `${options.publicUrl.replace(/\/+$/, '')}${EVENTS_PATH}`;
  return text.split(PLACEHOLDER).join(url);
}
