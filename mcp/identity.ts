import { readFileSync } from 'node:fs';

import { ICON_PATH } from './paths.ts';

// No MCP SDK here: the authorization server's metadata reads this identity at start, before the
// SDK is loaded (the protocol revisions, which come from the SDK, are in ./protocol.ts).
export { ICON_PATH };

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
  description?: string;
};

/** A small breath-like mark, served at /mcp/icon.svg and inlined where there is no URL (stdio). */
export const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0f766e"/><path d="M14 38c6-10 12-10 18 0s12 10 18 0" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round"/><path d="M14 26c6-10 12-10 18 0s12 10 18 0" fill="none" stroke="#99f6e4" stroke-width="5" stroke-linecap="round"/></svg>';

/**
 * The one identity of Exhale's MCP server: serverInfo and every discovery document are built from
 * it, so they never disagree.
 */
export const IDENTITY = {
  name: 'exhale',
  title: 'Exhale',
  version: pkg.version,
  description:
    "Exhale tracks a household's subscriptions and recurring bills: what is paid, when the next charges come, what it all costs per month, price increases and where to save. Agents read and manage everything the member whose token they use can.",
} as const;

/** The icon by URL when the server has one (keeps every 2026-era response small), inline otherwise. */
export function iconsFor(base?: string): Array<{ src: string; mimeType: string; sizes: string[] }> {
  const src = base
    ? `${base}${ICON_PATH}`
    : `data:image/svg+xml;base64,${Buffer.from(ICON_SVG).toString('base64')}`;
  return [{ src, mimeType: 'image/svg+xml', sizes: ['any'] }];
}

/** The serverInfo (Implementation) every MCP response names; `base` is the server's URL when it has one. */
export function serverInfo(base?: string): {
  name: string;
  title: string;
  version: string;
  description: string;
  icons: Array<{ src: string; mimeType: string; sizes: string[] }>;
  websiteUrl?: string;
} {
  return {
    name: IDENTITY.name,
    title: IDENTITY.title,
    version: IDENTITY.version,
    description: IDENTITY.description,
    icons: iconsFor(base),
    ...(base ? { websiteUrl: base } : {}),
  };
}
