import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type { RouteGroup } from '../../bot/http/app.ts';
import type { ChatEngine } from '../../core/chat/index.ts';
import { calendarRoutes } from './calendar.ts';
import { chatRoutes } from './chat.ts';
export { IMPORT_UPLOAD_LIMITS } from './imports.ts';
import { miniAppApi, type MiniAppApiOptions } from './routes.ts';
import { type AppServing, appRoutes } from './static.ts';
import type * as AppBuilderModule from '../../scripts/buildApp.mjs';

type AppBuilder = typeof AppBuilderModule;

const here = path.dirname(fileURLToPath(import.meta.url));
/**
 * The checkout's root: two folders up from the source (`miniapp/server`), three from the compiled
 * server (`dist/miniapp/server`), which runs beside the same checkout.
 */
const CHECKOUT =
  path.basename(path.resolve(here, '..', '..')) === 'dist'
    ? path.resolve(here, '..', '..', '..')
    : path.resolve(here, '..', '..');

/** Where the built app is by default: `miniapp/dist` of the checkout. */
export const DEFAULT_APP_DIR = path.join(CHECKOUT, 'miniapp', 'dist');

/** scripts/buildApp.mjs of the checkout (not compiled into dist/: it is JavaScript already). */
function loadAppBuilder(): Promise<AppBuilder> {
  // The path is computed (source or build), so TypeScript cannot type it: it is that module.
  return import(
    pathToFileURL(path.join(CHECKOUT, 'scripts', 'buildApp.mjs')).href
  ) as Promise<AppBuilder>;
}

export interface MiniAppOptions extends MiniAppApiOptions {
  /** The built app; default `miniapp/dist`, built on start when its index.html is missing. */
  appDir?: string | undefined;
  /** One line to the process log (the build on start, its failure). */
  log?: ((line: string) => void) | undefined;
  /** The chat engine the Ask screen talks to (`POST /api/chat`); absent: that route is 404. */
  chat?: ChatEngine | undefined;
}

/** The Mini App's three route groups (mount at `/api`, `/app`, `/cal`) and what stops them. */
export interface MiniApp {
  api: RouteGroup;
  app: RouteGroup;
  calendar: RouteGroup;
  /** Resolves once `/app/` can be served (true) or cannot (false: the 503 page). */
  ready: Promise<boolean>;
  /** Ends the open event streams (at shutdown, so requests in flight can finish). */
  close(): void;
}

/**
 * When the default app folder has no index.html (a fresh clone whose install did not build it),
 * builds it once, in the background: `/app/` waits for it; a failure is logged once and `/app/`
 * answers 503 while the API keeps working. An explicit `appDir` (tests) is served as it is.
 */
function serving(options: MiniAppOptions): AppServing {
  const appDir = options.appDir ?? DEFAULT_APP_DIR;
  const index = path.join(appDir, 'index.html');
  if (existsSync(index) || options.appDir !== undefined)
    return { appDir, ready: Promise.resolve(existsSync(index)) };
  const log = options.log ?? ((line: string) => console.log(line));
  if (!existsSync(path.join(appDir, '..', 'vite.config.ts'))) {
    log('Mini App: not in this checkout (no miniapp/vite.config.ts); /app/ answers 503');
    return { appDir, ready: Promise.resolve(false) };
  }
  log('Mini App: miniapp/dist is missing; building it once (node scripts/buildApp.mjs)…');
  const ready = loadAppBuilder()
    .then(({ buildApp }) => buildApp())
    .then((result) => {
      if (result === 'no-app')
        log('Mini App: not built (this checkout has no miniapp/vite.config.ts)');
      return existsSync(index);
    })
    .catch((error: unknown) => {
      log(
        `Mini App: the build failed (${error instanceof Error ? error.message : String(error)}); /app/ answers 503 until it is built`,
      );
      return false;
    });
  return { appDir, ready };
}

export function createMiniApp(options: MiniAppOptions): MiniApp {
  const engine = options.chat;
  // Whether Slack is connected is the caller's to say (bot/main.ts, from its config): no env here.
  const api = miniAppApi({
    ...options,
    extra: engine ? (group, context) => chatRoutes(group, context, engine) : options.extra,
  });
  const app = serving(options);
  return {
    api: api.routes,
    app: appRoutes(app),
    calendar: calendarRoutes(options.core),
    ready: app.ready,
    close: api.close,
  };
}
