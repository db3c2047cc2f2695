import type { Urgency } from "../message-kinds";

// How a failed send is spaced from the next (issue 19): a notice waits 30 s, then twice as long each
// time; a message a person waits for (app/messaging/message-kinds.ts) first gets quick retries, so an
// SMS code or a reset link refused four times still arrives about 15 s after it was asked for, and
// then falls back to the notices' schedule, with as many slow attempts as a notice has.

export type RetrySchedule = {
  /** A notice's wait after the attempts made so far (1 after the first failure). */
  retryDelayMs(attempts: number): number;
  /** The waits after a waited-for message's first failures, before `retryDelayMs` takes over. */
  awaitedRetryDelaysMs: readonly number[];
  /** A notice's attempts before it is 'failed'; a waited-for message gets its quick retries on top. */
  maxAttempts: number;
};

/** Notices: 30 s, 1 min, 2 min, ... capped at an hour, 10 attempts over about 4 hours. Waited for: 1, 2, 4, 8 s first. */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  retryDelayMs: (attempts) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000),
  awaitedRetryDelaysMs: [1_000, 2_000, 4_000, 8_000],
  maxAttempts: 10,
};

/** The wait before the next attempt at a message of this urgency, after `attempts` attempts. */
export function retryDelayMs(schedule: RetrySchedule, urgency: Urgency, attempts: number): number {
  if (urgency === "notice") return schedule.retryDelayMs(attempts);
  const quick = schedule.awaitedRetryDelaysMs;
  return attempts <= quick.length
    ? (quick[Math.max(0, attempts - 1)] ?? 0)
    : schedule.retryDelayMs(attempts - quick.length);
}

/** How many attempts a message of this urgency gets before it is 'failed'. */
export const maxAttemptsOf = (schedule: RetrySchedule, urgency: Urgency): number =>
  schedule.maxAttempts + (urgency === "awaited" ? schedule.awaitedRetryDelaysMs.length : 0);
