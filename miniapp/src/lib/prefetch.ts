import { ApiError, authorization, batch, type BatchCall, me, op, type OpResult } from './api.ts';
import type { Me, OpName, Out } from './types.ts';

/**
 * The first screen's data in one round trip: `main.ts` starts it before the app mounts, and one
 * `POST /api/batch` brings who is signed in (`/api/me`) and, when the app opens on the overview,
 * the overview's three reads. The app and the overview take it once; later loads fetch afresh.
 */
const OVERVIEW = [
  { op: 'get_totals', input: { group_by: 'category' } },
  { op: 'get_upcoming', input: { days: 30 } },
  { op: 'get_context', input: {} },
] as const satisfies readonly BatchCall[];

type Overview = {
  totals: Out<'get_totals'>;
  upcoming: Out<'get_upcoming'>;
  context: Out<'get_context'>;
};

function outputOf<N extends OpName>(result: OpResult<unknown> | ApiError | undefined): Out<N> {
  if (result instanceof ApiError) throw result;
  if (result === undefined) throw new Error('the batch answered fewer results than asked');
  // The server answers each call with that op's output, in the order the calls were sent.
  return result.output as Out<N>;
}

function overviewOf(results: Array<OpResult<unknown> | ApiError>): Overview {
  return {
    totals: outputOf<'get_totals'>(results[0]),
    upcoming: outputOf<'get_upcoming'>(results[1]),
    context: outputOf<'get_context'>(results[2]),
  };
}

export function loadOverview(): Promise<Overview> {
  return Promise.all([
    op('get_totals', { group_by: 'category' }),
    op('get_upcoming', { days: 30 }),
    op('get_context', {}),
  ]).then(([totals, upcoming, context]) => ({
    totals: totals.output,
    upcoming: upcoming.output,
    context: context.output,
  }));
}

let earlyMe: Promise<Me> | null = null;
let earlyOverview: Promise<Overview> | null = null;

/** What index.html's bootstrap sent: for whom, which calls (as JSON), and its response. */
interface FirstRequest {
  auth: string | null;
  calls: string;
  answer: Promise<Response>;
}
declare global {
  interface Window {
    __exhaleFirst?: FirstRequest | undefined;
  }
}

/**
 * The bootstrap's request when it is the one this app would send now (same credentials, same
 * calls); taken once. Otherwise (another start screen, init data found elsewhere) it is ignored.
 */
function sentEarly(calls: readonly BatchCall[]): Promise<Response> | undefined {
  const first = window.__exhaleFirst;
  window.__exhaleFirst = undefined;
  if (!first || first.auth !== authorization() || first.calls !== JSON.stringify(calls))
    return undefined;
  return first.answer;
}

/** Starts the first screen's round trip (with the overview's reads when it opens there). */
export function startFirstScreen(withOverview: boolean): void {
  const calls = withOverview ? OVERVIEW : [];
  const answer = batch(calls, { me: true, sent: sentEarly(calls) });
  earlyMe = answer.then((a) => a.me);
  earlyOverview = withOverview ? answer.then((a) => overviewOf(a.results)) : null;
  // A failed batch (signed out, offline) is the app's to show; the overview, once signed in,
  // then loads afresh rather than taking the failure.
  answer.catch(() => {
    earlyOverview = null;
  });
  earlyOverview?.catch(() => undefined);
}

/** Who is signed in: the first screen's answer once, then `/api/me` afresh (after a sign-in). */
export function firstMe(): Promise<Me> {
  const taken = earlyMe;
  earlyMe = null;
  return taken ?? me();
}

/** The overview's data: the first screen's answer once, then fetched afresh. */
export function overviewData(): Promise<Overview> {
  const taken = earlyOverview;
  earlyOverview = null;
  return taken ?? loadOverview();
}
