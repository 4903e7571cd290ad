import { createRequire } from 'node:module';

import pino, { type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';

import type { OpObservation } from '../core/index.ts';

export type { Logger };

export type LogFormat = 'json' | 'pretty';

/**
 * The process log: one JSON object a line (pino) where a machine reads it, pretty lines in a
 * terminal. `EXHALE_LOG_FORMAT` chooses (`json` or `pretty`); unset, a terminal gets pretty.
 * What is logged are our own sentences and fields (request id, household, op, channel,
 * duration); keys, tokens and message text never are, and the fields that could hold a secret
 * are redacted in case a caller passes one by mistake.
 */
export function createLogger(options: {
  level: string;
  format?: LogFormat | undefined;
  destination?: NodeJS.WritableStream;
}): Logger {
  const destination = options.destination ?? process.stdout;
  const isTerminal = 'isTTY' in destination && destination.isTTY === true;
  const format = options.format ?? (isTerminal ? 'pretty' : 'json');
  const base = {
    level: options.level,
    base: null,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    redact: {
      paths: ['token', 'key', 'apiKey', 'authorization', 'password', 'secret', '*.token', '*.key'],
      censor: '[redacted]',
    },
    serializers: { err: pino.stdSerializers.err },
  };
  if (format === 'pretty') {
    // Loaded only for a terminal (~11 MB and a tenth of a second of start): a server writing
    // JSON never needs it. pino-pretty is CommonJS, whose `module.exports` is this very factory
    // (its declared default export), so require's untyped answer is named as that type.
    const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
    return pino(
      base,
      pretty({
        destination,
        colorize: isTerminal,
        ignore: 'pid,hostname',
        translateTime: 'SYS:HH:MM:ss',
        sync: true,
      }),
    );
  }
  return pino(base, destination);
}

/** Logs each op call the kernel reports: writes and failures at info, reads at debug. */
export function logOpCalls(logger: Logger): (o: OpObservation) => void {
  return (o) => {
    const fields = {
      op: o.op,
      surface: o.surface ?? 'internal',
      channel: o.channel,
      household: o.householdId,
      outcome: o.outcome,
      ms: Math.round(o.durationMs * 10) / 10,
      ...(o.dryRun ? { dryRun: true } : {}),
    };
    if (o.outcome === 'internal') logger.error(fields, `op ${o.op} failed`);
    else if (o.outcome !== 'ok' || o.effect !== 'read') logger.info(fields, `op ${o.op}`);
    else logger.debug(fields, `op ${o.op}`);
  };
}
