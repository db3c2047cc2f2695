import { describe, expect, it } from "vitest";
import { type TermsSnapshot, termsChanges } from "./terms-changes";

const base: TermsSnapshot = {
  kind: "reverse",
  title: "Gravel hauling",
  description: "Haul gravel",
  serviceName: "Trucking",
  serviceAreaName: "Calgary (Alberta)",
  reserveCents: 1_000_000,
  decrementKind: "amount",
  decrementValue: 10_000,
  startsAt: new Date("2026-12-01T16:00:00Z"),
  endsAt: new Date("2026-12-02T00:00:00Z"),
  softCloseWindowMinutes: 5,
  softCloseExtensionMinutes: 5,
  softCloseCapMinutes: 60,
  priceWeightPercent: 100,
  technicalPassMark: null,
  requirements: [],
};

describe("termsChanges", () => {
  it("says nothing when nothing a seller reads changed", () => {
    expect(termsChanges(base, { ...base })).toEqual([]);
  });

  it("names each change with its before and after", () => {
    const lines = termsChanges(base, {
      ...base,
      reserveCents: 900_000,
      endsAt: new Date("2026-12-02T02:00:00Z"),
      description: "Haul more gravel",
    });
    expect(lines).toEqual([
      "Description: changed (read it on the auction's page)",
      "Reserve price: $10,000.00 → $9,000.00",
      "Bidding ends: 2026-12-02 00:00 UTC → 2026-12-02 02:00 UTC",
    ]);
  });

  it("lists a sealed auction's required documents and deadline", () => {
    const sealed: TermsSnapshot = { ...base, kind: "sealed", requirements: ["Price schedule"] };
    const lines = termsChanges(sealed, { ...sealed, requirements: ["Price schedule", "Safety plan"] });
    expect(lines).toEqual(["Each bid must carry: Price schedule → Price schedule, Safety plan"]);
  });
});
