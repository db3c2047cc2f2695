import { describe, expect, it } from "vitest";
import {
  canadianProvinces,
  certificationOptions,
  formatUtcOffset,
  industrySectors,
  listCountries,
  listTimezones,
  parseGmtOffset,
  usStates,
} from "./index";

function isSortedByName(items: { name: string }[]): boolean {
  return items.every((item, i) => i === 0 || (items[i - 1]?.name ?? "") <= item.name);
}

describe("industrySectors", () => {
  it("has the 19 NAICS sectors from Mining to Public Administration", () => {
    expect(industrySectors).toHaveLength(19);
    expect(industrySectors[0]).toEqual({
      code: "21",
      name: "Mining, Quarrying, and Oil and Gas Extraction",
    });
    expect(industrySectors.at(-1)).toEqual({
      code: "91",
      name: "Public Administration",
    });
    const codes = industrySectors.map((s) => s.code);
    expect(new Set(codes).size).toBe(19);
    expect(codes).toEqual([...codes].sort());
  });
});

describe("canadianProvinces", () => {
  it("has the 13 spec codes, sorted by name", () => {
    expect(canadianProvinces).toHaveLength(13);
    expect(new Set(canadianProvinces.map((p) => p.code))).toEqual(
      new Set(["AB", "BC", "MB", "NB", "NL", "NS", "NU", "NW", "ON", "PE", "QC", "SK", "YU"]),
    );
    expect(isSortedByName(canadianProvinces)).toBe(true);
  });
});

describe("usStates", () => {
  it("has the 50 states, DC and 6 territories (57 entries)", () => {
    expect(usStates).toHaveLength(57);
    const codes = usStates.map((s) => s.code);
    expect(new Set(codes).size).toBe(57);
    for (const code of ["DC", "PR", "AS", "GU", "MP", "VI", "UM", "AB"]) {
      expect(codes.includes(code)).toBe(code !== "AB");
    }
    expect(isSortedByName(usStates)).toBe(true);
  });
});

describe("certificationOptions", () => {
  it("lists the 8 certifications exactly, in order", () => {
    expect(certificationOptions).toEqual([
      "Safety Management and Regulatory Awareness for Wellsite Supervision",
      "Second Line Supervisor's Well Control",
      "Well Service Blowout Prevention",
      "Detection and Control of Flammable Substances",
      "WHMIS",
      "Standard First Aid",
      "TDG",
      "H2S Alive",
    ]);
  });
});

describe("timezones", () => {
  it("parses and formats offsets", () => {
    expect(parseGmtOffset("GMT")).toBe(0);
    expect(parseGmtOffset("GMT-07:00")).toBe(-420);
    expect(parseGmtOffset("GMT+05:45")).toBe(345);
    expect(formatUtcOffset(-420)).toBe("UTC-07:00");
    expect(formatUtcOffset(0)).toBe("UTC+00:00");
    expect(formatUtcOffset(570)).toBe("UTC+09:30");
  });

  it("includes America/Edmonton and UTC, sorted by offset then name", () => {
    const zones = listTimezones();
    expect(zones.length).toBeGreaterThan(300);
    const edmonton = zones.find((z) => z.name === "America/Edmonton");
    expect(edmonton?.label).toMatch(/^\(UTC-0[67]:00\) America\/Edmonton$/);
    expect(zones.find((z) => z.name === "UTC")?.label).toBe("(UTC+00:00) UTC");
    for (let i = 1; i < zones.length; i++) {
      const prev = zones[i - 1];
      const cur = zones[i];
      if (!prev || !cur) continue;
      expect(
        prev.offsetMinutes < cur.offsetMinutes || (prev.offsetMinutes === cur.offsetMinutes && prev.name < cur.name),
      ).toBe(true);
    }
  });

  it("uses the offset at the given date", () => {
    const winter = listTimezones(new Date("2025-01-15T12:00:00Z"));
    const summer = listTimezones(new Date("2025-07-15T12:00:00Z"));
    expect(winter.find((z) => z.name === "America/Edmonton")?.label).toBe("(UTC-07:00) America/Edmonton");
    expect(summer.find((z) => z.name === "America/Edmonton")?.label).toBe("(UTC-06:00) America/Edmonton");
    expect(winter.find((z) => z.name === "America/St_Johns")?.offsetMinutes).toBe(-210);
  });
});

describe("listCountries", () => {
  it("includes Canada and the US, with more than 240 entries sorted by name", () => {
    const list = listCountries();
    expect(list.length).toBeGreaterThan(240);
    expect(list.find((c) => c.code === "CA")?.name).toBe("Canada");
    expect(list.some((c) => c.code === "US")).toBe(true);
    expect(new Set(list.map((c) => c.code)).size).toBe(list.length);
    expect(list.every((c, i) => i === 0 || (list[i - 1]?.name ?? "").localeCompare(c.name, "en") <= 0)).toBe(true);
  });
});
