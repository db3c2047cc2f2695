import type { LotTerms } from "~/auctions/lots/lots.server";
import type { Database } from "~db/database.server";
import { auctionBids } from "~db/schema";
import { createAuctionRow, type Party } from "./auction-fixtures";

// Lots of line items the tests share (issue 31), and a lotted auction closed with bids, ready to award.

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

/**
 * A closed auction of three lots, `HAULING_AND_CEMENTING` and "Crane" ($1,000.00 reserve), both
 * sellers invited, with bids straight in the database (ranks in order):
 * - Hauling: `first` 10 h × $100.00 + 2.5 km × $50.00 + 100 m³ × $3.00 = $1,425.00, then `second`
 *   $90.00, $50.00, $3.50 = $1,375.00 (the lowest; its disposal line is $350.00 against $400.00 at
 *   the ceiling);
 * - Cementing: `second` $4,800.00, then `first` $4,500.00 (the lowest);
 * - Crane: nobody.
 * `award` is the award page's form giving each lot to its lowest bid: the lots go to different sellers.
 */
export async function closedLotsWithBids(
  db: Database,
  owner: Party,
  [first, second]: [Party, Party],
  catalogue: { serviceId: number; serviceAreaId: number },
  times = { startsAt: new Date(Date.now() - 7_200_000), endsAt: new Date(Date.now() - 3_600_000) },
) {
  const auction = await createAuctionRow(db, {
    owner,
    ...catalogue,
    ...times,
    status: "closed",
    sellers: [first, second],
    lots: [
      ...HAULING_AND_CEMENTING,
      { title: "Crane", reserveCents: 100_000, decrementKind: "amount", decrementValue: 1_000 },
    ],
  });
  const [hauling, cementing] = auction.lots;
  if (!hauling || !cementing) throw new Error("no lots");
  const bids = await db
    .insert(auctionBids)
    .values(
      [
        { lotId: hauling.id, seller: first, amountCents: 142_500, unitCents: [10_000, 5_000, 300] },
        { lotId: hauling.id, seller: second, amountCents: 137_500, unitCents: [9_000, 5_000, 350] },
        { lotId: cementing.id, seller: second, amountCents: 480_000, unitCents: null },
        { lotId: cementing.id, seller: first, amountCents: 450_000, unitCents: null },
      ].map(({ seller, ...bid }, index) => ({
        ...bid,
        auctionId: auction.id,
        organizationId: seller.organizationId,
        userId: seller.userId,
        kind: "manual" as const,
        rank: index + 1,
      })),
    )
    .returning({ id: auctionBids.id });
  const bidId = (index: number) => String(bids[index]?.id);
  return {
    auction,
    award: { [`lot_${hauling.id}`]: bidId(1), [`lot_${cementing.id}`]: bidId(3), confirm: "yes" },
  };
}
