import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ProgressMessage } from '../../../core/chat/progress.ts';

/**
 * The progress message's throttle, with fake timers: an edit only when the text changes, at most
 * one a second, the newest text shown when its turn comes, nothing after settle(), and a failed
 * edit (Telegram refusing one) never failing the work it reports on.
 */
describe('ProgressMessage', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function progress(options: { fail?: boolean } = {}) {
    const edits: string[] = [];
    const logged: string[] = [];
    const message = new ProgressMessage(
      'Reading a.pdf…',
      (text) => {
        edits.push(text);
        return options.fail ? Promise.reject(new Error('Bad Request')) : Promise.resolve();
      },
      1_000,
      (m) => logged.push(m),
    );
    return { message, edits, logged };
  }

  it('edits at most once a second, showing the newest text when its turn comes', async () => {
    const { message, edits } = progress();
    message.set('Reading page 1 of 3…');
    message.set('Reading page 2 of 3…');
    await vi.advanceTimersByTimeAsync(999);
    expect(edits).toEqual([]);
    message.set('Reading page 3 of 3…');
    await vi.advanceTimersByTimeAsync(1);
    expect(edits).toEqual(['Reading page 3 of 3…']);
    await vi.advanceTimersByTimeAsync(1_500);
    // A second has passed since: the next text shows at once.
    message.set('Looking for subscriptions…');
    await vi.advanceTimersByTimeAsync(0);
    expect(edits).toEqual(['Reading page 3 of 3…', 'Looking for subscriptions…']);
  });

  it('does not edit when the text is what is shown, nor when it comes back to it', async () => {
    const { message, edits } = progress();
    message.set('Reading a.pdf…');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(edits).toEqual([]);
    message.set('Reading the picture… 10%');
    message.set('Reading the picture… 10%');
    await vi.advanceTimersByTimeAsync(300);
    // Within the second after that edit, the text goes and comes back: nothing to show then.
    message.set('Reading the picture… 20%');
    message.set('Reading the picture… 10%');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(edits).toEqual(['Reading the picture… 10%']);
  });

  it('drops what waits its turn once settled, and waits for the edit under way', async () => {
    const { message, edits } = progress();
    await vi.advanceTimersByTimeAsync(1_000);
    message.set('Reading the picture… 40%');
    message.set('Reading the picture… 50%');
    await message.settle();
    await vi.advanceTimersByTimeAsync(10_000);
    message.set('Reading the picture… 90%');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(edits).toEqual(['Reading the picture… 40%']);
  });

  it('logs a failed edit and goes on with the next', async () => {
    const { message, edits, logged } = progress({ fail: true });
    await vi.advanceTimersByTimeAsync(1_000);
    message.set('Reading page 1 of 2…');
    await vi.advanceTimersByTimeAsync(1_000);
    message.set('Reading page 2 of 2…');
    await message.settle();
    expect(edits).toEqual(['Reading page 1 of 2…', 'Reading page 2 of 2…']);
    expect(logged).toEqual([
      'chat: editing a progress message failed',
      'chat: editing a progress message failed',
    ]);
  });

  it('shows nothing when the channel gave no message to edit', async () => {
    const message = new ProgressMessage('Reading…', null, 0, () => undefined);
    message.set('Looking for subscriptions…');
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(message.settle()).resolves.toBeUndefined();
  });
});
