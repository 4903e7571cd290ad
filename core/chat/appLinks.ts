import type { ReplyBuilder } from './reply.ts';
import type { Turn } from './turn.ts';

/**
 * A screen of the web app, as the path under `/app/` the app routes by (`subscriptions/<id>`,
 * `calendar`, `import/<upload id>`): docs/miniapp-screens.md. The app also reads the same screens
 * from a Telegram start parameter (`startapp=sub_<id>` on t.me links).
 */
export type AppScreen = string;

/** `<base>/<screen>` with exactly one slash between them. */
function under(base: string, screen: AppScreen): string {
  return `${base.replace(/\/+$/, '')}/${screen.replace(/^\/+/, '')}`;
}

/**
 * The "Open in app" button of a chat card, opening THAT screen, or null where no app can open:
 *
 * - the web app's own chat (the Ask screen): a webapp button with the app path, opened in place;
 * - where the Mini App is served over https (Telegram): a `web_app` button whose URL carries the
 *   screen as its path (Telegram passes a start parameter only on t.me links); none in a group,
 *   where it would open for whoever taps it;
 * - elsewhere (the terminal, Slack) with Exhale's web address known: a link to `/app/<screen>`,
 *   which the browser opens after signing in (`/web`).
 */
export function appButton(
  turn: Turn,
  reply: ReplyBuilder,
  label: string,
  screen: AppScreen,
): ReturnType<ReplyBuilder['url']> | null {
  if (turn.channel.name === 'web') return reply.webapp(label, under('/app', screen));
  const app = turn.engine.miniAppUrl;
  if (app) return turn.inGroup ? null : reply.webapp(label, under(app, screen));
  const web = turn.engine.webUrl;
  if (web && turn.channel.name !== 'telegram') return reply.url(label, under(`${web}/app`, screen));
  return null;
}
