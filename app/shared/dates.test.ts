import { describe, expect, it } from "vitest";
import { utcDay, utcMinute } from "./dates";

describe("UTC dates", () => {
  const instant = new Date("2026-11-25T23:59:30.500Z");

  it("write the UTC day of an instant or of its ISO text", () => {
    expect(utcDay(instant)).toBe("2026-11-25");
    expect(utcDay(instant.toISOString())).toBe("2026-11-25");
    expect(utcDay(new Date("2026-11-26T01:00:00-05:00"))).toBe("2026-11-26");
  });

  it("write an instant to the minute, with UTC said", () => {
    expect(utcMinute(instant)).toBe("2026-11-25 23:59 UTC");
    expect(utcMinute(instant.toISOString())).toBe("2026-11-25 23:59 UTC");
  });
});
