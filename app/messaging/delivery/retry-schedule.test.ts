import { describe, expect, it } from "vitest";
import { AwaitedKind, urgencyOf } from "../message-kinds";
import { DEFAULT_RETRY_SCHEDULE, maxAttemptsOf, retryDelayMs } from "./retry-schedule";

const waits = (urgency: "awaited" | "notice", count: number) =>
  Array.from({ length: count }, (_, index) => retryDelayMs(DEFAULT_RETRY_SCHEDULE, urgency, index + 1));

describe("the retry schedule", () => {
  it("retries a message a person waits for after 1, 2, 4 and 8 s, then as a notice", () => {
    expect(waits("awaited", 6)).toEqual([1_000, 2_000, 4_000, 8_000, 30_000, 60_000]);
    // Four refusals, then the fifth attempt: 15 s after the first.
    expect(waits("awaited", 4).reduce((sum, wait) => sum + wait, 0)).toBe(15_000);
  });

  it("keeps the notices' 30 s doubling, capped at an hour", () => {
    expect(waits("notice", 3)).toEqual([30_000, 60_000, 120_000]);
    expect(retryDelayMs(DEFAULT_RETRY_SCHEDULE, "notice", 9)).toBe(60 * 60_000);
  });

  it("gives a waited-for message its quick retries on top of a notice's attempts", () => {
    expect(maxAttemptsOf(DEFAULT_RETRY_SCHEDULE, "notice")).toBe(10);
    expect(maxAttemptsOf(DEFAULT_RETRY_SCHEDULE, "awaited")).toBe(14);
  });

  it("knows which kinds a person waits for: codes and account links, not notices", () => {
    expect(Object.values(AwaitedKind).map(urgencyOf)).toEqual(["awaited", "awaited", "awaited", "awaited"]);
    expect(AwaitedKind).toEqual({
      AccessCode: "access-code",
      PasswordReset: "password-reset",
      Invitation: "invitation",
      AccountSetup: "account-setup",
    });
    for (const kind of [
      "decision",
      "invoice",
      "expiry reminder",
      "bid-outbid notification",
      "already-has-an-account",
    ]) {
      expect(urgencyOf(kind), kind).toBe("notice");
    }
  });
});
