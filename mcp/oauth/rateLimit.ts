/**
 * Failed connect-code attempts, counted per client and per address in fixed windows: past
 * `limit` failures in `windowMs`, the consent page refuses further tries until the window ends.
 * In the process's memory: a code is 8 characters of 32 (40 bits) and lives 10 minutes, so a few
 * tries per window and process leave guessing hopeless even across several processes.
 */
export class FailureLimiter {
  private readonly windows = new Map<string, { start: number; failures: number }>();

  constructor(
    private readonly limit = 5,
    private readonly windowMs = 15 * 60_000,
  ) {}

  private current(key: string, now: number): { start: number; failures: number } {
    const found = this.windows.get(key);
    if (found && now - found.start < this.windowMs && now >= found.start) return found;
    const fresh = { start: now, failures: 0 };
    if (this.windows.size > 10_000) this.windows.clear();
    this.windows.set(key, fresh);
    return fresh;
  }

  blocked(keys: readonly string[], now: number): boolean {
    return keys.some((key) => this.current(key, now).failures >= this.limit);
  }

  fail(keys: readonly string[], now: number): void {
    for (const key of keys) this.current(key, now).failures += 1;
  }
}
