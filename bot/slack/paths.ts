/**
 * Where Slack sends events, commands and interactions. Its own module so the HTTP edge can name
 * the path at start without loading @slack/bolt, which is loaded only when Slack is configured.
 */
export const EVENTS_PATH = '/slack/events';
