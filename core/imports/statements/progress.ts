import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A progress hook for reading a statement, carried by the call instead of the op's input: ops
 * take only data (zod in, zod out), yet the chat wants "Reading page 2 of 3…" or "OCR 40%" while
 * read_statement runs. Wrap the call, and the reader reports to the hook each step of that call:
 *
 *   await withReadProgress((step) => show(step), () =>
 *     core.invoke('read_statement', actor, input));
 *
 * Steps, in order: `picture` (a photo or screenshot, `done` 0 to 1) or `page` (a scanned PDF's
 * page `page` of `pages`, `done` 0 to 1 over that page), then `finding` (the transactions are read;
 * subscriptions are being looked for). Text formats report `finding` only. The hook must not throw
 * nor wait: it is called from inside the reader.
 */

export type ReadStep =
  | { step: 'picture'; done: number }
  | { step: 'page'; page: number; pages: number; done: number }
  | { step: 'finding' };

export type ReadProgress = (step: ReadStep) => void;

const hooks = new AsyncLocalStorage<ReadProgress>();

export function withReadProgress<T>(onProgress: ReadProgress, run: () => T): T {
  return hooks.run(onProgress, run);
}

/**
 * A reporter to the hook of the enclosing withReadProgress call, captured now: tesseract's
 * progress arrives from its worker thread's messages, outside this call's async context. A hook
 * that throws is ignored (progress is a courtesy: it never fails a read); with no hook it does
 * nothing.
 */
export function stepReporter(): ReadProgress {
  const hook = hooks.getStore();
  return (step) => {
    try {
      hook?.(step);
    } catch {
      // ignored, as said above
    }
  };
}
