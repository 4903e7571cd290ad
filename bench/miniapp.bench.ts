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
 * against a real `exhale` on the demo household over loopback.
 */
const RUNS = Number(process.env.EXHALE_BENCH_MINIAPP_RUNS ?? 15);

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
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
      for (let i = 0; i < RUNS + 2; i += 1) {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
        const page = await context.newPage();
        await page.addInitScript({ content: probe });
        await page.goto(target);
        await page.waitForSelector('[data-testid="monthly"]');
        const at = Number(await page.evaluate(`window.__seen['[data-testid="monthly"]']`));
        if (i >= 2) first.push(at);
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
          note: `navigation → overview numbers, cold context, ${RUNS} runs; aim ≤ 300 ms`,
        },
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
