import { describe, expect, it } from "vitest";
import { formatDuration, utcToZonedLocal, zonedLocalToUtc } from "./zoned-time";

describe("times in the user's zone", () => {
  it("turns a datetime-local value into UTC and back, daylight saving included", () => {
    expect(zonedLocalToUtc("2026-12-01T09:00", "America/Edmonton")?.toISOString()).toBe("2026-12-01T16:00:00.000Z");
    expect(zonedLocalToUtc("2026-07-01T09:00", "America/Edmonton")?.toISOString()).toBe("2026-07-01T15:00:00.000Z");
    expect(zonedLocalToUtc("2026-12-01T09:00", "Asia/Kolkata")?.toISOString()).toBe("2026-12-01T03:30:00.000Z");
    expect(utcToZonedLocal(new Date("2026-12-01T16:00:00Z"), "America/Edmonton")).toBe("2026-12-01T09:00");
  });

  it("moves a time skipped by the spring change forward, and takes the first of a repeated one", () => {
    expect(zonedLocalToUtc("2026-03-08T02:30", "America/Edmonton")?.toISOString()).toBe("2026-03-08T09:30:00.000Z");
    expect(zonedLocalToUtc("2026-11-01T01:30", "America/Edmonton")?.toISOString()).toBe("2026-11-01T07:30:00.000Z");
  });

  it("refuses what is not a wall-clock time", () => {
    for (const bad of ["2026-02-30T01:30", "2026-12-01", "tomorrow", "2026-12-01T24:00", ""]) {
      expect(zonedLocalToUtc(bad, "America/Edmonton")).toBeNull();
    }
  });

  it("says what is left of a duration", () => {
    expect(formatDuration(2 * 3_600_000 + 5 * 60_000)).toBe("2 h 05 min");
    expect(formatDuration(250_000)).toBe("4 min 10 s");
    expect(formatDuration(-5)).toBe("0 s");
  });
});
