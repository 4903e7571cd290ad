import type { SpanStatusCode } from '@opentelemetry/api';

import { type ErrorCode, OpError } from '../errors/index.ts';
import type { Actor } from './actor.ts';
import type { Effect, Surface } from './op.ts';
import { NO_SPAN, type SpanLike, tracingApi } from './tracing.ts';

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

/** The call's `op <name>` span, or the no-op one while tracing is off. */
function startSpan(call: Omit<OpObservation, 'outcome' | 'durationMs'>): {
  span: SpanLike;
  error: SpanStatusCode | null;
} {
  const otel = tracingApi();
  if (!otel) return { span: NO_SPAN, error: null };
  const span = otel.trace.getTracer('exhale.kernel').startSpan(`op ${call.op}`, {
    kind: otel.SpanKind.INTERNAL,
    attributes: {
      'exhale.op': call.op,
      'exhale.surface': call.surface ?? 'internal',
      'exhale.actor': call.actorKind,
      'exhale.dry_run': call.dryRun,
    },
  });
  return { span, error: otel.SpanStatusCode.ERROR };
}

/**
 * Runs one op call under an OpenTelemetry span (`op <name>`; only once tracing is enabled, see
 * `tracing.ts`, and free when no SDK is registered) and reports it to every observer. An
 * observer that throws is ignored: watching never breaks a call.
 */
export async function observeOp<T>(
  observers: ReadonlySet<OpObserver>,
  call: Omit<OpObservation, 'outcome' | 'durationMs'>,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const { span, error: errorStatus } = startSpan(call);
  let outcome: OpObservation['outcome'] = 'ok';
  try {
    return await run();
  } catch (error) {
    outcome = error instanceof OpError ? error.code : 'internal';
    if (errorStatus !== null) span.setStatus({ code: errorStatus, message: outcome });
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
