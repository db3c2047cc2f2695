import { formatInZone } from "~/platform/zoned-time";
import { parseId } from "~/shared/ids";
import type { Database } from "~db/database.server";
import { lotStatusAt, STATUS_LABELS } from "../auction-rules";
import type { AuctionWithLots, LotWithLines } from "../auction-views.server";
import { quantityText } from "../lots/line-pricing";
import { linesOfLot } from "../lots/lot-bid.server";
import { lotName } from "../lots/lot-words";
import type { PricedLine } from "../lots/unit-price-table";
import { CHOOSE_A_LOT } from "./on-behalf-schema";

// Which lot a bid by phone is on (issue 31): on an auction of lots the person entering it chooses one
// still open (or not yet open); a closed lot, another auction's lot or none is refused. An auction
// shown as one price has one lot, its first, and no choice.

/** A lot whose bidding is over (closed, awarded, cancelled) takes no bid by phone. */
export const lotTakesBids = (auction: AuctionWithLots, lot: LotWithLines, now: Date) => {
  const status = lotStatusAt(auction, lot, now);
  return status === "open" || status === "scheduled";
};

export const lotClosedMessage = (lot: { position: number; title: string }) =>
  `Bidding on ${lotName(lot)} has closed: choose a lot that is still open`;

/** The lots as the chooser lists them: by position and title, with their closing status. */
export function lotChoices(auction: AuctionWithLots, timeZone: string, now: Date) {
  return auction.lots.map((lot) => {
    const status = lotStatusAt(auction, lot, now);
    return {
      id: lot.id,
      name: lotName(lot),
      status: STATUS_LABELS[status],
      closes: formatInZone(lot.endsAt, timeZone),
      open: lotTakesBids(auction, lot, now),
    };
  });
}

export type LotChoice =
  | { ok: true; lot: LotWithLines }
  | { ok: false; status: 400 | 409; field: "lot" | "form"; message: string };

/**
 * The lot a posted bid by phone is on. An auction shown as lots: the one named, which must be one of
 * its lots still taking bids. Otherwise its first lot, and a lot named must be that one.
 */
export function postedLot(auction: AuctionWithLots, lotId: number | undefined, now: Date): LotChoice {
  const named = lotId === undefined ? undefined : auction.lots.find((lot) => lot.id === lotId);
  if (!auction.pricedByLots) {
    const [first] = auction.lots;
    if (!first || (lotId !== undefined && named !== first)) {
      return { ok: false, status: 400, field: "form", message: CHOOSE_A_LOT };
    }
    return { ok: true, lot: first };
  }
  if (!named) return { ok: false, status: 400, field: "lot", message: CHOOSE_A_LOT };
  if (!lotTakesBids(auction, named, now)) {
    return { ok: false, status: 409, field: "lot", message: lotClosedMessage(named) };
  }
  return { ok: true, lot: named };
}

/**
 * The lot the page shows (`?lot=ID`, else the first still taking bids) and why the one asked for is
 * not it, if it is not: a lot of another auction, or closed.
 */
export function shownLot(auction: AuctionWithLots, requested: string | null, now: Date) {
  const open = auction.lots.filter((lot) => lotTakesBids(auction, lot, now));
  if (requested === null) return { lot: open[0], problem: null };
  const asked = auction.lots.find((lot) => lot.id === parseId(requested));
  if (asked && open.includes(asked)) return { lot: asked, problem: null };
  return { lot: open[0], problem: asked ? lotClosedMessage(asked) : CHOOSE_A_LOT };
}

/** A lot's lines as the unit price table shows them. */
export async function pricedLines(db: Database, lotId: number): Promise<PricedLine[]> {
  return (await linesOfLot(db, lotId)).map((line) => ({
    position: line.position,
    description: line.description,
    unit: line.unit,
    quantity: line.quantity,
    quantityText: quantityText(line.quantity),
    ceilingCents: line.ceilingCents,
  }));
}
