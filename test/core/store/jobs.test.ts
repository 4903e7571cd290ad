import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Database } from '../../../core/store/connection.ts';
import { runClaimedJob } from '../../../core/store/jobs.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../../helpers/sharedDatabase.ts';

const HOUR = 3_600_000;
const SCHEDULE = { everyMs: HOUR, leaseMs: 10 * 60_000 };
const T0 = new Date('2026-03-02T10:00:00.000Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);

describe('runClaimedJob: a scheduled job run by one process of many', () => {
  let shared: SharedTestDatabase;
  let one: Database;
  let two: Database;
  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    one = shared.open();
    two = shared.open();
  });
  afterEach(async () => shared.close());

  it('runs once when two processes find it due at the same moment', async () => {
    let runs = 0;
    const work = async (): Promise<void> => void (runs += 1);
    const results = await Promise.all([
      runClaimedJob(one, 'purge', T0, SCHEDULE, work),
      runClaimedJob(two, 'purge', T0, SCHEDULE, work),
    ]);
    expect(results.sort()).toEqual([false, true]);
    expect(runs).toBe(1);
  });

  it('is not run again before its interval, by any process, and is after it', async () => {
    const work = async (): Promise<void> => undefined;
    expect(await runClaimedJob(one, 'purge', T0, SCHEDULE, work)).toBe(true);
    expect(await runClaimedJob(two, 'purge', at(HOUR - 1), SCHEDULE, work)).toBe(false);
    expect(await runClaimedJob(two, 'purge', at(HOUR), SCHEDULE, work)).toBe(true);
  });

  it('leaves the job of a process that died mid-way to another once the lease runs out', async () => {
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    // Process one claims and never finishes (it died): its work never resolves.
    void runClaimedJob(one, 'ecb', T0, SCHEDULE, () => {
      started();
      return new Promise<void>(() => undefined);
    });
    await running;
    const work = async (): Promise<void> => undefined;
    expect(await runClaimedJob(two, 'ecb', at(SCHEDULE.leaseMs - 1), SCHEDULE, work)).toBe(false);
    expect(await runClaimedJob(two, 'ecb', at(SCHEDULE.leaseMs + 1), SCHEDULE, work)).toBe(true);
  });

  it('tries a failed run again at the next chance, and keeps jobs apart by name', async () => {
    await expect(
      runClaimedJob(one, 'ecb', T0, SCHEDULE, () => Promise.reject(new Error('offline'))),
    ).rejects.toThrow('offline');
    const work = async (): Promise<void> => undefined;
    expect(await runClaimedJob(two, 'ecb', at(1), SCHEDULE, work)).toBe(true);
    expect(await runClaimedJob(two, 'purge', at(1), SCHEDULE, work)).toBe(true);
  });
});
