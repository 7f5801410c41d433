/** The structured JSON logger, built so that no secret or personal value reaches the logs. */
import pino, { type Logger } from 'pino';

/** Keys whose values are never written, wherever they appear in a log object. */
const REDACT = [
  'password',
  '*.password',
  'passwordCopy',
  '*.passwordCopy',
  'token',
  '*.token',
  'jwtToken',
  '*.jwtToken',
  'authorization',
  '*.authorization',
  '*.headers.authorization',
  '*.headers.cookie',
  'cookie',
  '*.cookie',
];

/**
 * Serialises an error without the values a query carried: Drizzle puts the parameters (hashes,
 * e-mails, names) in the message and in `params`, and PostgreSQL puts row values in `detail`.
 */
export function safeError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err) };
  const out: Record<string, unknown> = {
    type: err.name === 'Error' ? err.constructor.name : err.name,
    message: err.message.split('\nparams:')[0],
  };
  const query: unknown = (err as Error & { query?: unknown }).query;
  if (typeof query === 'string') out.query = query;
  if (err.stack) out.stack = err.stack.replace(/\nparams:[^\n]*/g, '');
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const c = cause as Error & { code?: string; constraint?: string };
    out.cause = { type: c.name, message: c.message.split('\nparams:')[0], code: c.code, constraint: c.constraint };
  }
  return out;
}

/** Creates the process logger: JSON lines on stdout, ISO timestamps, secrets redacted. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT, censor: '[redactado]' },
      serializers: { err: safeError, error: safeError },
    },
    destination,
  );
}

const deLineas = new WeakMap<Logger, Logger>();

/**
 * The logger of the one line written per request (src/server/http/logging.ts, `escribirLinea`):
 * the same level, format and destination as `logger`, without the redaction pass. That line has
 * fixed fields (request id, method, path with its secret segments already replaced, status,
 * duration) and is never given an object from elsewhere, so it holds nothing to redact; and the
 * redaction pass, with its wildcard paths, costs about 5 µs per line, more than the rest of the
 * line (docs/benchmarks.md, "Server").
 */
export function loggerDeLineas(logger: Logger): Logger {
  let lineas = deLineas.get(logger);
  if (!lineas) {
    const destino = (logger as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym];
    lineas = pino({ level: logger.level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }, destino);
    deLineas.set(logger, lineas);
  }
  return lineas;
}
