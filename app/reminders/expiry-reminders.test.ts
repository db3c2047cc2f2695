import { describe, expect, it } from "vitest";
import { thresholdReached } from "./expiry-reminders.server";

describe("thresholdReached", () => {
  it("is 30 within a month, 7 within a week, and nothing before, after expiry or far off", () => {
    expect(thresholdReached("2031-03-31", "2031-03-01")).toBe(30);
    expect(thresholdReached("2031-04-01", "2031-03-01")).toBeUndefined();
    expect(thresholdReached("2031-03-09", "2031-03-01")).toBe(30);
    expect(thresholdReached("2031-03-08", "2031-03-01")).toBe(7);
    expect(thresholdReached("2031-03-01", "2031-03-01")).toBe(7);
    expect(thresholdReached("2031-02-28", "2031-03-01")).toBeUndefined();
  });
});
