import { describe, expect, it } from "vitest";
import { copiedDates } from "./auction-copy.server";

// A copy's dates: tomorrow, at the old start's time of day on the user's clock, as long as the old one.

describe("copiedDates", () => {
  it("starts tomorrow at the old start's local time and keeps the old length", () => {
    const source = { startsAt: new Date("2026-03-02T16:30:00Z"), scheduledEndsAt: new Date("2026-03-02T23:30:00Z") };
    const { startsAt, endsAt } = copiedDates(source, "America/Edmonton", new Date("2026-11-26T04:00:00Z"));
    // 09:30 in Edmonton (MST, UTC-7) on the 26th, the day after the 25th there.
    expect(startsAt.toISOString()).toBe("2026-11-26T16:30:00.000Z");
    expect(endsAt.getTime() - startsAt.getTime()).toBe(7 * 3_600_000);
  });

  it("keeps at least a minute between start and end", () => {
    const at = new Date("2026-03-02T16:30:00Z");
    const { startsAt, endsAt } = copiedDates({ startsAt: at, scheduledEndsAt: at }, "UTC", at);
    expect(endsAt.getTime() - startsAt.getTime()).toBe(60_000);
  });
});
