import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import {
  ANA_TG,
  APP_ROOT,
  buildApp,
  launchBrowser,
  launchUrl,
  signInitData,
  startHousehold,
} from '../test/helpers/miniapp.ts';
import type { BenchRow, BenchSuite } from './types.ts';

/**
 * The Mini App (issue 9's bars): each JavaScript chunk's gzipped size (the first screen's
 * chunks ≤ 100 KB together, the whole app ≤ 250 KB), the first screen with data (navigation to
 * the overview's numbers visible, a new browser context each run: nothing cached; aim ≤ 300 ms)
 * and a screen change (a tab tapped to its rows visible; aim ≤ 100 ms), in Chromium at phone size
 * against a real `exhale` on the demo household over loopback. The first screen is broken down
 * (HTML, JavaScript, main.ts, mount, each API request, render) from the page's own timings.
 */
const RUNS = Number(process.env.EXHALE_BENCH_MINIAPP_RUNS ?? 15);

function median(xs: number[]): number {
  return quantile(xs, 0.5);
}

/** The value at fraction `q` of the sorted values (nearest rank). */
function quantile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
}

/**
 * Where the first screen's time goes, in the page's own clock (ms from navigation start): the
 * HTML's last byte, the last JavaScript chunk's, `main.ts` running (its `exhale:main` mark), the
 * app mounted, each API request's start and end (by path), and the overview's numbers in the DOM.
 */
const BREAKDOWN = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  const js = res.filter((r) => r.name.endsWith('.js'));
  const mark = (n) => performance.getEntriesByName(n)[0]?.startTime ?? null;
  return {
    html: nav ? nav.responseEnd : null,
    js: js.length ? Math.max(...js.map((r) => r.responseEnd)) : null,
    main: mark('exhale:main'),
    mounted: mark('exhale:mounted'),
    api: res.filter((r) => r.name.includes('/api/')).map((r) => ({
      path: new URL(r.name).pathname, start: r.startTime, end: r.responseEnd,
    })),
  };
})()`;

interface Breakdown {
  html: number | null;
  js: number | null;
  main: number | null;
  mounted: number | null;
  api: Array<{ path: string; start: number; end: number }>;
}

function chunkRows(): BenchRow[] {
  const dist = path.join(APP_ROOT, 'dist');
  const index = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const first = new Set(
    [...index.matchAll(/(?:src|href)="\/app\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]),
  );
  const rows: BenchRow[] = [];
  let firstBytes = 0;
  let allBytes = 0;
  for (const file of readdirSync(path.join(dist, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .sort()) {
    const bytes = gzipSync(readFileSync(path.join(dist, 'assets', file))).length;
    const isFirst = first.has(`assets/${file}`);
    allBytes += bytes;
    if (isFirst) firstBytes += bytes;
    rows.push({
      name: `chunk ${file.replace(/-[\w-]{8}\.js$/, '')}`,
      median: bytes,
      unit: 'B gz',
      note: isFirst ? 'first screen' : 'on demand',
    });
  }
  rows.push({
    name: 'first screen JS',
    median: firstBytes,
    unit: 'B gz',
    note: `${(firstBytes / 1024).toFixed(1)} KB; aim ≤ 100 KB`,
  });
  rows.push({
    name: 'whole app JS',
    median: allBytes,
    unit: 'B gz',
    note: `${(allBytes / 1024).toFixed(1)} KB; aim ≤ 250 KB`,
  });
  return rows;
}

export const suite: BenchSuite = {
  name: 'miniapp',
  async run(): Promise<BenchRow[]> {
    await buildApp();
    const rows = chunkRows();
    const hh = await startHousehold();
    const browser = await launchBrowser();
    try {
      const initData = signInitData(hh.telegram.token, ANA_TG);
      const target = launchUrl(hh.server.url, initData, 'light');
      // Times are taken in the page (performance.now(): from navigation start, or from the tap)
      // to the moment the awaited element is in the DOM, so Playwright's own round trips do not count.
      const probe = `
        window.TelegramWebviewProxy = { postEvent() {} };
        window.__seen = {};
        new MutationObserver(() => {
          for (const sel of ['[data-testid="monthly"]', '[data-testid="sub-row"]'])
            if (window.__seen[sel] === undefined && document.querySelector(sel)) window.__seen[sel] = performance.now();
        }).observe(document, { subtree: true, childList: true });
        addEventListener('click', () => { window.__seen = {}; window.__tap = performance.now(); }, true);`;
      const first: number[] = [];
      const parts = new Map<string, number[]>();
      const part = (name: string, ms: number | null | undefined) => {
        if (ms === null || ms === undefined) return;
        parts.set(name, [...(parts.get(name) ?? []), ms]);
      };
      for (let i = 0; i < RUNS + 2; i += 1) {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
        const page = await context.newPage();
        await page.addInitScript({ content: probe });
        await page.goto(target);
        await page.waitForSelector('[data-testid="monthly"]');
        const at = Number(await page.evaluate(`window.__seen['[data-testid="monthly"]']`));
        // The page's own figures; typed by BREAKDOWN's expression above.
        const times = (await page.evaluate(BREAKDOWN)) as Breakdown;
        if (i >= 2) {
          first.push(at);
          part('HTML received', times.html);
          part('JS received', times.js);
          part('main.ts runs', times.main);
          part('app mounted', times.mounted);
          part('API requests', times.api.length);
          const api = times.api.filter((r) => r.start < at);
          if (api.length > 0) {
            part('first API request sent', Math.min(...api.map((r) => r.start)));
            part('last API answer in', Math.max(...api.map((r) => r.end)));
            for (const r of api) part(`${r.path} (start → end)`, r.end - r.start);
            part('render after last answer', at - Math.max(...api.map((r) => r.end)));
          }
        }
        await context.close();
      }
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.addInitScript({ content: probe });
      await page.goto(target);
      await page.waitForSelector('[data-testid="monthly"]');
      const change: number[] = [];
      for (let i = 0; i < RUNS + 2; i += 1) {
        for (const [tab, sel] of [
          ['subscriptions', '[data-testid="sub-row"]'],
          ['overview', '[data-testid="monthly"]'],
        ] as const) {
          await page.click(`[data-tab="${tab}"]`);
          await page.waitForSelector(sel);
          const ms = Number(
            await page.evaluate(`window.__seen[${JSON.stringify(sel)}] - window.__tap`),
          );
          if (i >= 2) change.push(ms);
        }
      }
      await context.close();
      rows.push(
        {
          name: 'first screen with data',
          median: median(first),
          unit: 'ms',
          note: `navigation → overview numbers, cold context, ${RUNS} runs, p90 ${quantile(first, 0.9).toFixed(1)} ms; aim ≤ 300 ms`,
        },
        ...[...parts].map(([name, values]) => ({
          name: `  first screen: ${name}`,
          median: median(values),
          unit: name === 'API requests' ? 'requests' : 'ms',
          note:
            name === 'API requests'
              ? 'before the numbers show'
              : `p90 ${quantile(values, 0.9).toFixed(1)} ms`,
        })),
        {
          name: 'screen change',
          median: median(change),
          unit: 'ms',
          note: `tab → its data visible, ${RUNS * 2} changes; aim ≤ 100 ms`,
        },
      );
      return rows;
    } finally {
      await browser.close();
      await hh.stop();
    }
  },
};
