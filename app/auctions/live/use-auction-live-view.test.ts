import { describe, expect, it } from "vitest";
import { newerView, timeLeftAfter } from "./use-auction-live-view";

const view = (serverTime: string, timeLeftMs = 60_000) => ({ status: "open", serverTime, timeLeftMs });

describe("live view hooks' rules", () => {
  it("keeps whichever view the server made last (the loader's after a revalidation, else the event's)", () => {
    const older = view("2030-01-01T10:00:00.000Z");
    const later = view("2030-01-01T10:00:01.000Z");
    expect(newerView(older, later)).toBe(later);
    expect(newerView(later, older)).toBe(later);
    const same = view("2030-01-01T10:00:00.000Z");
    expect(newerView(older, same)).toBe(same);
  });

  it("counts down from the server's time left, never below zero, never up", () => {
    expect(timeLeftAfter(60_000, 0)).toBe(60_000);
    expect(timeLeftAfter(60_000, 1_500)).toBe(58_500);
    expect(timeLeftAfter(60_000, 61_000)).toBe(0);
    expect(timeLeftAfter(60_000, -5)).toBe(60_000);
  });
});
