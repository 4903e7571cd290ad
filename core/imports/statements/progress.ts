import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A progress hook for reading a statement, carried by the call instead of the op's input: ops
 * take only data (zod in, zod out), yet the chat wants "OCR 40%" while read_statement runs.
 * Wrap the call, and the reader reports to the hook everything that call reads by OCR:
 *
 *   await withReadProgress((done) => edit(`OCR ${Math.round(done * 100)}%`), () =>
 *     core.invoke('read_statement', actor, input));
 *
 * `done` runs from 0 to 1 over the picture (or a scanned PDF's pages); text formats never call it.
 */

const hooks = new AsyncLocalStorage<(done: number) => void>();

export function withReadProgress<T>(onProgress: (done: number) => void, run: () => T): T {
  return hooks.run(onProgress, run);
}

/** The hook of the enclosing withReadProgress call, if any. */
export function progressHook(): ((done: number) => void) | undefined {
  return hooks.getStore();
}
