import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

import { type ErrorCode, OpError } from '../errors/index.ts';
import type { Actor } from './actor.ts';
import type { Effect, Surface } from './op.ts';

/**
 * What the kernel tells observers about every op call, after it ends: metrics count these, and
 * logs may write them. Names and codes only, never inputs or outputs (they may hold a person's
 * data or a secret).
 */
export interface OpObservation {
  op: string;
  /** The surface that called, or null for internal calls (the scheduler, tests). */
  surface: Surface | null;
  actorKind: Actor['kind'];
  /** The channel the actor came through (telegram, mcp, cli…). */
  channel: Actor['channel'];
  /** The op's effect, or null for a name not in the catalog. */
  effect: Effect | null;
  householdId: string | null;
  dryRun: boolean;
  /** `ok`, or the error code the call ended with (`internal` for anything not an `OpError`). */
  outcome: 'ok' | ErrorCode;
  durationMs: number;
}

export type OpObserver = (observation: OpObservation) => void;

const tracer = () => trace.getTracer('exhale.kernel');

/**
 * Runs one op call under an OpenTelemetry span (`op <name>`; free when no SDK is registered) and
 * reports it to every observer. An observer that throws is ignored: watching never breaks a call.
 */
export async function observeOp<T>(
  observers: ReadonlySet<OpObserver>,
  call: Omit<OpObservation, 'outcome' | 'durationMs'>,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const span = tracer().startSpan(`op ${call.op}`, {
    kind: SpanKind.INTERNAL,
    attributes: {
      'exhale.op': call.op,
      'exhale.surface': call.surface ?? 'internal',
      'exhale.actor': call.actorKind,
      'exhale.dry_run': call.dryRun,
    },
  });
  let outcome: OpObservation['outcome'] = 'ok';
  try {
    return await run();
  } catch (error) {
    outcome = error instanceof OpError ? error.code : 'internal';
    span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
    span.setAttribute('exhale.error', outcome);
    throw error;
  } finally {
    span.end();
    if (observers.size > 0) {
      const observation: OpObservation = {
        ...call,
        outcome,
        durationMs: performance.now() - started,
      };
      for (const observer of observers) {
        try {
          observer(observation);
        } catch {
          // An observer's failure is its own; the op's result stands.
        }
      }
    }
  }
}
