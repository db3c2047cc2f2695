import type { MessageServices } from "~/messaging/messaging.server";
import { parseId } from "~/shared/ids";
import type { Database } from "~db/database.server";
import type { Actor } from "../auction-changes.server";
import type { AuctionWithLots } from "../auction-views.server";
import { EVALUATION_NOT_COMPLETE } from "../award/award.server";
import { lotName } from "./lot-words";
import { awardLots, checkLotChoices, type LotAwardChoice, lotAwardCandidates } from "./lots-award.server";

// The award page of a lotted auction (issue 31): each lot's sellers' best bids, lowest first, with
// what awarding lot by lot costs against every lot to one seller; the buyer's choice per lot (a
// reason where the lowest is passed over), asked about once, then awarded in one transaction.

/**
 * Whether the auction is awarded lot by lot: a reverse auction shown as lots, or a sealed auction of
 * several lots (issue 31). A sealed auction of one lot is awarded as one amount, as before.
 */
export const awardedByLots = (auction: AuctionWithLots) =>
  auction.pricedByLots || (auction.kind === "sealed" && auction.lots.length > 1);

/** The page's data; `seller` (from `?seller=`) ticks that seller's bid on every lot. */
export async function loadLotsAward(db: Database, auction: AuctionWithLots, seller: number | undefined) {
  const { lots, comparison, notQualified, evaluationPending, ranked } = await lotAwardCandidates(db, auction);
  const names = new Map(lots.flatMap(({ bids }) => bids.map((bid) => [bid.organizationId, bid.name] as const)));
  return {
    lots: lots.map(({ lot, bids }) => ({
      id: lot.id,
      name: lotName(lot),
      reserveCents: lot.reserveCents,
      chosen: (bids.find((bid) => bid.organizationId === seller) ?? bids[0])?.bidId ?? null,
      bids: bids.map((bid) => ({
        bidId: bid.bidId,
        name: bid.name,
        amountCents: bid.amountCents,
      })),
    })),
    lotByLotCents: comparison.lotByLot.total,
    oneSeller: comparison.oneSeller.map((row) => ({
      organizationId: row.seller,
      name: names.get(row.seller) ?? "",
      totalCents: row.total,
      overCents: row.overLotByLot,
    })),
    unbid: comparison.unbid.length,
    /** The sellers the evaluation did not qualify: named, never offered. */
    notQualified: notQualified.map((row) => ({ name: row.name, reason: row.reason })),
    evaluationPending,
    /** Each lot's first bid is its best-ranked (the evaluation has criteria), not its lowest. */
    ranked,
  };
}

export type LotsAwardData = Awaited<ReturnType<typeof loadLotsAward>>;

/** The choices as posted: `lot_{id}` the bid, `reason_{id}` why the lowest was passed over. */
function choicesOf(form: FormData, lotIds: number[]): LotAwardChoice[] {
  return lotIds.flatMap((lotId) => {
    const bidId = parseId(String(form.get(`lot_${lotId}`) ?? ""));
    const reason = String(form.get(`reason_${lotId}`) ?? "").trim();
    return bidId === undefined ? [] : [{ lotId, bidId, ...(reason ? { reason } : {}) }];
  });
}

/**
 * The buyer's post: refused with a message per lot, asked about once (`confirm`), or awarded.
 * Answers what the page shows next, or done.
 */
export async function submitLotsAward(
  services: MessageServices,
  auction: AuctionWithLots,
  actor: Actor,
  form: FormData,
) {
  const choices = choicesOf(
    form,
    auction.lots.map((lot) => lot.id),
  );
  const values = Object.fromEntries(choices.map((choice) => [choice.lotId, choice]));
  if (form.get("confirm") !== "yes") {
    const candidates = await lotAwardCandidates(services.db, auction);
    if (candidates.evaluationPending) {
      return { kind: "refused" as const, status: 409, message: EVALUATION_NOT_COMPLETE, lots: {}, values };
    }
    const problems = checkLotChoices(candidates, choices);
    if (Object.keys(problems).length > 0) {
      return {
        kind: "refused" as const,
        status: 400,
        message: "Please correct the lots below.",
        lots: problems,
        values,
      };
    }
    const summary = candidates.lots.flatMap(({ lot, bids }) => {
      const bid = bids.find((row) => row.bidId === values[lot.id]?.bidId);
      return bid ? [{ lot: lotName(lot), name: bid.name, amountCents: bid.amountCents }] : [];
    });
    return { kind: "confirm" as const, choices, summary };
  }
  const awarded = await awardLots(services, auction.id, actor, choices);
  if (awarded.kind === "refused") {
    return {
      kind: "refused" as const,
      status: awarded.status,
      message: awarded.message,
      lots: "lots" in awarded ? (awarded.lots ?? {}) : {},
      values,
    };
  }
  return { kind: "done" as const };
}
