import { PriceSchedules, type ScheduledBid } from "../lots/price-schedules";
import type { PricedLine } from "../lots/unit-price-table";

// A sealed auction's price schedules after the deadline (issue 31), on the auction's page, its
// evaluation page and its award page: one lot's as one table, as before; several lots' one table
// per lot, each lot's bidders lowest first.

export type SealedSchedulesData = {
  several: boolean;
  lots: readonly { id: number; name: string; lines: readonly PricedLine[]; bids: readonly ScheduledBid[] }[];
};

export function SealedSchedules({ schedules }: { schedules: SealedSchedulesData }) {
  const [only] = schedules.lots;
  if (!schedules.several) return only ? <PriceSchedules lines={only.lines} bids={only.bids} /> : null;
  return (
    <>
      {schedules.lots.map((lot) =>
        lot.bids.length === 0 ? (
          <p key={lot.id}>{`${lot.name}: nobody bid.`}</p>
        ) : (
          <PriceSchedules
            key={lot.id}
            lines={lot.lines}
            bids={lot.bids}
            caption={`${lot.name}: the price schedules side by side, line by line, lowest total first`}
            label={`${lot.name}: the price schedules, line by line`}
          />
        ),
      )}
    </>
  );
}
