import { RateLimiterPostgres, type RateLimiterRes } from "rate-limiter-flexible";
import type { RawQueryResult } from "~db/database.server";

type Query = (text: string, values?: unknown[]) => Promise<RawQueryResult>;

export type ThrottleDecision = { allowed: true; delayMs: number } | { allowed: false; retryAfterSeconds: number };

/** Counters kept in PostgreSQL (table rate_limits), so every app machine sees the same counts. */
export type Throttles = ReturnType<typeof createThrottles>;

export const SIGN_IN_POLICY = {
  /** Failed sign-ins per account, then per address, in a 15-minute window. */
  perAccount: 10,
  perAddress: 50,
  windowSeconds: 15 * 60,
  /** Failures after which every further attempt is slowed down. */
  slowAfter: 3,
  delayStepMs: 250,
  maxDelayMs: 2_000,
};

export const RESET_POLICY = { perAccount: 3, perAddress: 10, windowSeconds: 60 * 60 };

export function createThrottles(query: Query) {
  // rate-limiter-flexible speaks to a node-postgres Pool; this is the one method it uses.
  const storeClient = { query: ({ text, values }: { text: string; values?: unknown[] }) => query(text, values) };
  const limiter = (keyPrefix: string, points: number, duration: number) =>
    new RateLimiterPostgres({
      storeClient,
      storeType: "pool",
      tableName: "rate_limits",
      tableCreated: true,
      keyPrefix,
      points,
      duration,
      clearExpiredByTimeout: false,
    });

  const signInByAccount = limiter("sign-in-account", SIGN_IN_POLICY.perAccount, SIGN_IN_POLICY.windowSeconds);
  const signInByAddress = limiter("sign-in-address", SIGN_IN_POLICY.perAddress, SIGN_IN_POLICY.windowSeconds);
  const resetByAccount = limiter("reset-account", RESET_POLICY.perAccount, RESET_POLICY.windowSeconds);
  const resetByAddress = limiter("reset-address", RESET_POLICY.perAddress, RESET_POLICY.windowSeconds);

  const consumed = (result: RateLimiterRes | null) => result?.consumedPoints ?? 0;
  const wait = (result: RateLimiterRes | null) => Math.max(1, Math.ceil((result?.msBeforeNext ?? 60_000) / 1000));

  return {
    /** Before checking a password: refused when either counter is used up, slowed after a few failures. */
    async checkSignIn(account: string, address: string): Promise<ThrottleDecision> {
      const [byAccount, byAddress] = await Promise.all([signInByAccount.get(account), signInByAddress.get(address)]);
      if (consumed(byAccount) >= SIGN_IN_POLICY.perAccount)
        return { allowed: false, retryAfterSeconds: wait(byAccount) };
      if (consumed(byAddress) >= SIGN_IN_POLICY.perAddress)
        return { allowed: false, retryAfterSeconds: wait(byAddress) };
      const failures = Math.max(consumed(byAccount), consumed(byAddress));
      const excess = failures - SIGN_IN_POLICY.slowAfter + 1;
      return {
        allowed: true,
        delayMs: excess > 0 ? Math.min(excess * SIGN_IN_POLICY.delayStepMs, SIGN_IN_POLICY.maxDelayMs) : 0,
      };
    },
    async recordSignInFailure(account: string, address: string): Promise<void> {
      await Promise.all([
        signInByAccount.penalty(account, 1).catch(() => {}),
        signInByAddress.penalty(address, 1).catch(() => {}),
      ]);
    },
    async recordSignInSuccess(account: string): Promise<void> {
      await signInByAccount.delete(account);
    },
    /** Counts a reset request; refused once either counter is used up. */
    async takeResetRequest(account: string, address: string): Promise<ThrottleDecision> {
      for (const [throttle, key] of [
        [resetByAccount, account],
        [resetByAddress, address],
      ] as const) {
        try {
          await throttle.consume(key, 1);
        } catch (rejection) {
          if (rejection instanceof Error) throw rejection;
          return { allowed: false, retryAfterSeconds: wait(rejection as RateLimiterRes) };
        }
      }
      return { allowed: true, delayMs: 0 };
    },
  };
}

/** "15 minutes", "1 minute": for the messages that say how long to wait. */
export function describeWait(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}
