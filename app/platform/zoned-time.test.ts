import { describe, expect, it } from "vitest";
import { formatDuration, formatInZone, timeText, utcToZonedLocal, zonedLocalToUtc, zonedTexts } from "./zoned-time";

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

describe("times formatted on the server for the browser (issue 17: no hydration mismatch)", () => {
  it("collects every UTC instant in the data, nested anywhere, formatted in the zone", () => {
    const view = {
      serverTime: "2026-11-25T16:05:00.000Z",
      terms: { startsAt: "2026-12-01T16:00:00.000Z", title: "2026-12-01T16:00 is not an instant" },
      ownBids: [{ createdAt: "2026-11-25T16:04:59.123Z", amountCents: 900_000 }],
      nothing: null,
    };
    const texts = zonedTexts(view, "America/Edmonton");
    expect(Object.keys(texts).sort()).toEqual([
      "2026-11-25T16:04:59.123Z",
      "2026-11-25T16:05:00.000Z",
      "2026-12-01T16:00:00.000Z",
    ]);
    expect(texts["2026-12-01T16:00:00.000Z"]).toBe(formatInZone("2026-12-01T16:00:00.000Z", "America/Edmonton"));
    expect(texts["2026-12-01T16:00:00.000Z"]).toMatch(/Dec 1, 2026, 9:00/);
  });

  it("shows the server's text, and an instant it did not format in UTC, the same in every browser", () => {
    expect(timeText({ "2026-12-01T16:00:00.000Z": "server text" }, "2026-12-01T16:00:00.000Z")).toBe("server text");
    expect(timeText({}, "2026-12-01T16:00:00.000Z")).toBe("2026-12-01 16:00 UTC");
  });
});
