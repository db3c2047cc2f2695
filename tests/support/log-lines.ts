import type { DestinationStream } from "pino";

/** A log line as the app writes it: pino's fields and ours. */
export type LogLine = {
  level: number;
  time: string;
  msg: string;
  reqId?: string;
  req?: { method: string; route: string };
  res?: { status: number; bytes: number };
  durationMs?: number;
  err?: { type: string; message: string; stack: string; [field: string]: unknown };
  [field: string]: unknown;
};

/** pino's numbers for its levels. */
export const LOG_LEVEL_NUMBERS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

/**
 * A destination for `startTestApp`'s `logDestination` that keeps every line written to it:
 * `text()` all of it as written, `lines()` each parsed (a line that is not JSON throws, naming it).
 */
export function captureLogLines() {
  let written = "";
  const destination: DestinationStream = {
    write(chunk: string) {
      written += chunk;
    },
  };
  return {
    destination,
    text: () => written,
    lines: (): LogLine[] =>
      written
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => {
          try {
            return JSON.parse(line) as LogLine;
          } catch {
            throw new Error(`a log line is not JSON: ${line}`);
          }
        }),
    clear() {
      written = "";
    },
  };
}
