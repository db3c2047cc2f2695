import { createHash } from "node:crypto";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import type { RawQueryResult } from "~db/database.server";

type Query = (text: string, values?: unknown[]) => Promise<RawQueryResult>;

export type ThrottleDecision = { allowed: true; delayMs: number } | { allowed: false; retryAfterSeconds: number };

/** Counters kept in PostgreSQL (table rate_limits), so every app machine sees the same counts. */
export type Throttles = ReturnType<typeof createThrottles>;

/**
 * Sign-in attempts in a 15-minute window. Every attempt is counted before its password is checked,
 * so no number of simultaneous attempts gets more checks than these; a successful one is given back.
 *
 * - 10 per account from one address: the policy's "10 failures per 15 minutes" for a guesser.
 * - 100 per account from all addresses together: stops a guesser spread over many addresses, yet is
 *   far above what one stranger's 10 refused guesses take, so a victim signing in from their usual
 *   address is not locked out by someone else's guesses (nor by ten strangers').
 * - 50 per address whatever the account: one address trying many accounts.
 */
export const SIGN_IN_POLICY = {
  perAccountAndAddress: 10,
  perAccount: 100,
  perAddress: 50,
  windowSeconds: 15 * 60,
  /** Failures (of the account from this address, or of this address) after which every further attempt is slowed down. */
  slowAfter: 3,
  delayStepMs: 250,
  maxDelayMs: 2_000,
};

export const RESET_POLICY = { perAccount: 3, perAddress: 10, windowSeconds: 60 * 60 };

/** The rate_limits key column is varchar(255): a key that might not fit is kept as its hash. */
function counterKey(...parts: string[]): string {
  const joined = parts.join(" ");
  return joined.length <= 200 ? joined : `sha256:${createHash("sha256").update(joined).digest("hex")}`;
}

type Counter = { limiter: RateLimiterPostgres; key: string };

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

  const signInByAccountAndAddress = limiter(
    "sign-in-account-address",
    SIGN_IN_POLICY.perAccountAndAddress,
    SIGN_IN_POLICY.windowSeconds,
  );
  const signInByAccount = limiter("sign-in-account", SIGN_IN_POLICY.perAccount, SIGN_IN_POLICY.windowSeconds);
  const signInByAddress = limiter("sign-in-address", SIGN_IN_POLICY.perAddress, SIGN_IN_POLICY.windowSeconds);
  const resetByAccount = limiter("reset-account", RESET_POLICY.perAccount, RESET_POLICY.windowSeconds);
  const resetByAddress = limiter("reset-address", RESET_POLICY.perAddress, RESET_POLICY.windowSeconds);

  const wait = (result: RateLimiterRes) =>
    Math.max(1, Math.ceil((result.msBeforeNext > 0 ? result.msBeforeNext : 60_000) / 1000));

  /**
   * Gives back a point an attempt took, within the window it was taken in. Not rate-limiter-flexible's
   * reward: that one, landing just after the window ended, would start the next window below zero.
   */
  async function giveBack({ limiter, key }: Counter): Promise<void> {
    await query("update rate_limits set points = points - 1 where key = $1 and points > 0 and expire > $2", [
      limiter.getKey(key),
      Date.now(),
    ]);
  }

  /**
   * Takes one point from each counter in turn, atomically in the database (an upsert that answers the
   * new count), so simultaneous attempts each see the others. The first counter used up refuses the
   * attempt, and the points it took are given back: a refused attempt counts nowhere, so attempts a
   * tight counter refuses never use up a looser, shared one.
   */
  async function take(counters: Counter[]): Promise<{ taken: RateLimiterRes[] } | { refusedFor: number }> {
    const taken: RateLimiterRes[] = [];
    for (const [index, counter] of counters.entries()) {
      try {
        taken.push(await counter.limiter.consume(counter.key, 1));
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        await Promise.all(counters.slice(0, index + 1).map(giveBack));
        return { refusedFor: wait(rejection) };
      }
    }
    return { taken };
  }

  const signInCounters = (account: string, address: string): Counter[] => [
    // Tightest and least shared first, so a stranger's refused guesses never reach the account's counter.
    { limiter: signInByAccountAndAddress, key: counterKey(account, address) },
    { limiter: signInByAddress, key: counterKey(address) },
    { limiter: signInByAccount, key: counterKey(account) },
  ];

  return {
    /**
     * Counts a sign-in attempt before its password is checked: refused when any counter is used up,
     * slowed down after a few failures. The attempt stays counted as a failure unless signInSucceeded
     * is called.
     */
    async takeSignInAttempt(account: string, address: string): Promise<ThrottleDecision> {
      const outcome = await take(signInCounters(account, address));
      if ("refusedFor" in outcome) return { allowed: false, retryAfterSeconds: outcome.refusedFor };
      const [byAccountAndAddress, byAddress] = outcome.taken;
      // Attempts before this one (the counts include it).
      const failures = Math.max(byAccountAndAddress?.consumedPoints ?? 1, byAddress?.consumedPoints ?? 1) - 1;
      const excess = failures - SIGN_IN_POLICY.slowAfter + 1;
      return {
        allowed: true,
        delayMs: excess > 0 ? Math.min(excess * SIGN_IN_POLICY.delayStepMs, SIGN_IN_POLICY.maxDelayMs) : 0,
      };
    },
    /** The attempt got in: it was no failure, and the account starts afresh from this address. */
    async signInSucceeded(account: string, address: string): Promise<void> {
      const [byAccountAndAddress, byAddress, byAccount] = signInCounters(account, address);
      if (!byAccountAndAddress || !byAddress || !byAccount) return;
      await Promise.all([
        byAccountAndAddress.limiter.delete(byAccountAndAddress.key),
        giveBack(byAddress),
        giveBack(byAccount),
      ]);
    },
    /** Counts a reset request before anything is sent; refused once either counter is used up. */
    async takeResetRequest(account: string, address: string): Promise<ThrottleDecision> {
      const outcome = await take([
        { limiter: resetByAddress, key: counterKey(address) },
        { limiter: resetByAccount, key: counterKey(account) },
      ]);
      if ("refusedFor" in outcome) return { allowed: false, retryAfterSeconds: outcome.refusedFor };
      return { allowed: true, delayMs: 0 };
    },
  };
}
