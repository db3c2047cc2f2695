import type { LotTerms } from "~/auctions/lots/lots.server";

// Lots of line items the tests share (issue 31).

/** A rate sheet: 10 hours and 2.5 km without a ceiling, 100 m³ at a ceiling of $4.00. */
export const HAULING = [
  { description: "Vacuum truck", unit: "hour", quantity: 10_000, ceilingCents: null },
  { description: "Mileage", unit: "km", quantity: 2_500, ceilingCents: null },
  { description: "Disposal", unit: "m³", quantity: 100_000, ceilingCents: 400 },
];

/** Two lots: "Hauling" ($2,000.00 reserve) bid on line by line, "Cementing" ($5,000.00) as one amount. */
export const HAULING_AND_CEMENTING: LotTerms[] = [
  { title: "Hauling", reserveCents: 200_000, decrementKind: "amount", decrementValue: 100, lines: HAULING },
  { title: "Cementing", reserveCents: 500_000, decrementKind: "amount", decrementValue: 1_000 },
];
