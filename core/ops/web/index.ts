import { createCalendarFeed } from './createCalendarFeed.ts';
import { createSignInLink } from './createSignInLink.ts';
import { endWebSession } from './endWebSession.ts';
import { listWebSessions } from './listWebSessions.ts';
import { revokeCalendarFeed } from './revokeCalendarFeed.ts';

/** Web access: sign-in links and sessions for the Mini App, and each member's calendar feed. */
export const webOps = [
  createSignInLink,
  listWebSessions,
  endWebSession,
  createCalendarFeed,
  revokeCalendarFeed,
] as const;
