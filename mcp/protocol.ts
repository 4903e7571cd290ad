import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

/** The 2026-07-28 revision, served natively by createMcpHandler (not in the SDK's 2025-era list). */
export const MODERN_REVISION = '2026-07-28';

/** Every protocol revision Exhale speaks, newest first: the modern one and the SDK's 2025-era ones. */
export const PROTOCOL_REVISIONS: readonly string[] = [
  MODERN_REVISION,
  ...SUPPORTED_PROTOCOL_VERSIONS,
];
