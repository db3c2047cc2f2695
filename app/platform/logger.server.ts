import { type DestinationStream, type LevelWithSilent, type Logger, pino } from "pino";

// One JSON line per request and per event on standard output (interfaces.md, "Operations"); Fly
// ships standard output to `fly logs`. What is never written: passwords, tokens, card data, access
// codes and session ids. Bodies, queries and raw URLs are never logged at all (requests are named by
// their route's pattern); the headers that carry secrets are redacted should anything log them.

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const REDACTED = "[redacted]";
const SECRET_HEADERS = ["cookie", "authorization", '["set-cookie"]', '["proxy-authorization"]'];
const REDACTED_PATHS = ["headers", "req.headers", "res.headers", "*.headers"].flatMap((parent) =>
  SECRET_HEADERS.map((header) => `${parent}${header.startsWith("[") ? "" : "."}${header}`),
);

// Drizzle's query errors carry the query's parameters (hashed passwords, token hashes, codes): in
// their message and stack ("params: a,b") and as a field. The statement stays (it is ours); the values
// never, nor postgres.js's own fields for them (enumerable in its debug mode).
const QUERY_PARAMETERS = /^(\s*)params: .*$/gm;
const PARAMETER_FIELDS = ["params", "parameters", "args"];
const withoutQueryParameters = (text: unknown) =>
  typeof text === "string" ? text.replace(QUERY_PARAMETERS, `$1params: ${REDACTED}`) : text;

type SerializedError = Record<string, unknown>;

function scrubbed(error: SerializedError): SerializedError {
  for (const field of PARAMETER_FIELDS) if (field in error) error[field] = REDACTED;
  error.message = withoutQueryParameters(error.message);
  error.stack = withoutQueryParameters(error.stack);
  // Errors under other fields (aggregateErrors, an error kept as a property) are serialized the same way.
  for (const value of Object.values(error)) {
    if (Array.isArray(value)) for (const item of value) if (isErrorLike(item)) scrubbed(item);
    if (isErrorLike(value)) scrubbed(value);
  }
  return error;
}

const isErrorLike = (value: unknown): value is SerializedError =>
  typeof value === "object" && value !== null && typeof (value as { stack?: unknown }).stack === "string";

/** pino's error serializer (type, message and stack with their causes), less any query parameters. */
const errorSerializer = (value: unknown) => {
  const serialized = pino.stdSerializers.err(value as Error);
  return serialized && typeof serialized === "object" ? scrubbed(serialized as SerializedError) : serialized;
};

const standardOutput = pino.destination({ fd: 1, sync: true });
let destination: DestinationStream = standardOutput;

/** An unknown level (before the environment is read: a CLI, a unit test) is the default, info. */
function initialLevel(): LogLevel {
  const level = process.env.LOG_LEVEL?.trim();
  return LOG_LEVELS.find((known) => known === level) ?? "info";
}

/**
 * The process's logger. Modules log through it directly (`logger.error({ err }, "what failed")`);
 * `configureLogger` sets its level and destination when a process starts. Its lines always go to
 * the destination configured last (a test hands in a buffer).
 */
export const logger: Logger = pino(
  {
    level: initialLevel(),
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: REDACTED },
    serializers: { err: errorSerializer },
  },
  { write: (line: string) => destination.write(line) },
);

export function configureLogger(options: { level: LogLevel; destination?: DestinationStream }): void {
  logger.level = options.level satisfies LevelWithSilent;
  destination = options.destination ?? standardOutput;
}

/**
 * `text` with every word of `secrets` that is long enough to matter (a code, a token, a link) taken
 * out: for a provider's error message, which may echo the request it refused (the SMS or e-mail).
 */
export function withoutWordsOf(text: string, secrets: string): string {
  // Codes have digits; tokens are long. URLs are split at their punctuation, so a token echoed alone goes too.
  const words = new Set(
    secrets.split(/[^\w~+-]+/).filter((word) => (word.length >= 6 && /\d/.test(word)) || word.length >= 16),
  );
  let result = text;
  for (const word of words) result = result.split(word).join(REDACTED);
  return result;
}
