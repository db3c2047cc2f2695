import type { OnBehalfEffect } from "~db/schema";
import { decrementOf, endAfterBid, lotStatusAt } from "../auction-rules";
import type { LotBiddingState } from "../lots/lot-bidding";
import { bidAsOneAmount } from "../lots/one-amount";
import type { BiddingState, NewBid } from "./bidding";
import type { Read } from "./bidding-read.server";

// A round (issue 9, decision 005): changes decided in order on one state of the auction, each on the
// state the one before left, and what each bidder is answered. Deciding only: the auction is read by
// bidding-read.server.ts, kept between rounds by known-states.server.ts and written by
// round-write.server.ts.

export type BidderRequest = {
  auctionId: number;
  /** The lot bid on (issue 31); none: the auction's first (an auction of one lot). */
  lotId?: number;
  organizationId: number;
  /** Who places it: a user of the seller, or (with `onBehalfNote`) the one entering it for the seller. */
  userId: number;
  now?: Date;
  /** Entered on the seller's behalf (issue 21): who asked and when. Every rule applies as to the seller's own. */
  onBehalfNote?: string;
};

/**
 * `confirmed: false`: a bid far under the price is only asked about (the typo guard), not placed.
 * On a lot priced by lines (issue 31), `unitCents` are the unit prices, line by line, and
 * `amountCents` their total (`lotTotalCents`).
 */
export type ManualRequest = BidderRequest & { amountCents: number; unitCents?: number[]; confirmed?: boolean };
export type MinimumRequest = BidderRequest & { minimumCents: number };

export type BidOutcome =
  | {
      kind: "accepted";
      bids: { id: number; amountCents: number; kind: "manual" | "auto" }[];
      endsAt: Date;
      /** Who led before and who leads now (for the outbid notice), and whether the end moved. */
      previousLeaderId: number | null;
      leaderId: number | null;
      extended: boolean;
    }
  | { kind: "refused"; status: 400 | 403 | 404 | 409; field: "amount" | "minimum" | "form"; message: string }
  /** A manual bid far under the price, not yet confirmed: nothing written; ask the seller once more. */
  | { kind: "unconfirmed"; referenceCents: number; dropPercent: number };

type Refused = Extract<BidOutcome, { kind: "refused" }>;

export const refused = (
  status: 400 | 403 | 404 | 409,
  message: string,
  field: "amount" | "minimum" | "form" = "form",
): Refused => ({ kind: "refused", status, field, message });

const SEALED_ONLY = "This is a sealed-bid auction: send one bid with its documents instead.";
export const NOT_INVITED = "This auction does not exist or you are not invited to it.";

/**
 * Whether the seller may bid now on the lot as it stands: invited to a published auction (a draft
 * is not there for sellers: 404, as for an auction that does not exist), terms accepted, the lot open.
 */
export function checkBidder(
  read: Read,
  auction: Read["auction"],
  lot: Read["lot"],
  organizationId: number,
  now: Date,
): Refused | undefined {
  const termsAccepted = read.termsAccepted?.[organizationId];
  if (termsAccepted === undefined || auction.status === "draft") return refused(404, NOT_INVITED);
  if (!termsAccepted) return refused(409, "Please accept the auction's terms before bidding.");
  if (auction.kind === "sealed") return refused(409, SEALED_ONLY);
  const status = lotStatusAt(auction, lot, now);
  if (status === "scheduled") return refused(409, "Bidding has not started yet.");
  if (status !== "open") return refused(409, "Bidding has closed.");
  return undefined;
}

/** The rules' view of the auction as read: reserve, decrement, the standing lowest, the auto-bids, own lowest bids. */
function biddingState(read: Read): BiddingState {
  const { lot, lowest, autoBids } = read;
  const ownLowest = new Map<number, number>();
  for (const [seller, amount] of Object.entries(read.ownLowest ?? {})) ownLowest.set(Number(seller), amount);
  return {
    reserve: lot.reserveCents,
    decrement: decrementOf(lot),
    lowest,
    autoBids: autoBids.map(({ seller, minimum, enteredAt }) => ({ seller, minimum, enteredAt })),
    ownLowest,
    ranksOnly: read.auction.sellerView === "rank",
  };
}

/** One accepted change: a manual bid (or a minimum) and the automatic bids it set off, at one moment. */
export type Change = {
  bids: NewBid[];
  /** A manual bid's user; for a minimum's change, who set it (the bids themselves are all automatic). */
  userId: number;
  /** The minimum whose change set the bids off, if that is what did. */
  autoBidId?: number;
  /** A manual bid entered on the seller's behalf by `userId`: the note of who asked and when. */
  onBehalfNote?: string;
  /** A bid or minimum entered on the seller's behalf: the notice the seller is owed, kept with the round's effects. */
  onBehalf?: OnBehalfEffect;
  before: BiddingState;
  after: BiddingState;
  endsBefore: Date;
  endsAfter: Date;
};

/**
 * Whether a lot is bid on line by line (issue 31): several lines, or one with a quantity other than 1
 * or a ceiling. Otherwise its one line's unit price is the total: bid as one amount, no lines kept.
 */
export const pricedByLines = (lines: Read["lines"]) => !bidAsOneAmount(lines ?? []);

/** Changes decided in order on the lot as read, each on the state the one before left. */
export class Round {
  readonly changes: Change[] = [];
  state: BiddingState;
  readonly auction: Read["auction"];
  /** The lot as the changes so far left it (a late bid moves its end). */
  lot: Read["lot"];
  /** A lot priced by lines: its lines and each seller's latest unit prices as the changes so far left them. */
  sheet: { lines: Read["lines"]; latestUnits: Map<number, readonly number[]> } | undefined;

  /** `paused`: sellers held back by their subscription, whose minimums bid nothing in this round. */
  constructor(
    readonly read: Read,
    paused?: ReadonlySet<number>,
  ) {
    this.state = paused?.size ? { ...biddingState(read), paused } : biddingState(read);
    this.auction = read.auction;
    this.lot = read.lot;
    this.sheet = pricedByLines(read.lines)
      ? {
          lines: read.lines,
          latestUnits: new Map(
            Object.entries(read.latestUnits ?? {}).map(([seller, units]) => [Number(seller), units]),
          ),
        }
      : undefined;
  }

  /** The lot's state for the line rules (lot-bidding.ts); only for a lot priced by lines. */
  lotState(sheet: NonNullable<Round["sheet"]>): LotBiddingState {
    return {
      bidding: this.state,
      lines: sheet.lines.map(({ quantity, ceilingCents }) => ({ quantity, ceilingCents })),
      latestUnits: sheet.latestUnits,
    };
  }

  /** The rank (and tie-break) of the next change: the auction's sequence number after it. */
  get nextRank() {
    return this.read.auction.sequence + this.changes.length + 1;
  }

  /** Keeps a change; a change with no bids moves nothing (a minimum that set nothing off). */
  add(
    bids: NewBid[],
    after: BiddingState,
    cause: { userId: number; autoBidId?: number; onBehalfNote?: string; onBehalf?: OnBehalfEffect },
    now: Date,
  ) {
    const endsBefore = this.lot.endsAt;
    // Ranks only: a late bid moves the end when it takes the lead, not when it improves a later place.
    const movesEnd = bids.length > 0 && (!this.state.ranksOnly || newLowest(this.state, after));
    const endsAfter = movesEnd ? endAfterBid({ ...this.auction, ...this.lot }, now) : endsBefore;
    this.changes.push({ bids, ...cause, before: this.state, after, endsBefore, endsAfter });
    this.state = after;
    if (endsAfter.getTime() !== endsBefore.getTime()) {
      this.lot = { ...this.lot, endsAt: endsAfter, extensions: this.lot.extensions + 1 };
    }
  }
}

const newLowest = (before: BiddingState, after: BiddingState) =>
  before.lowest?.amount !== after.lowest?.amount || before.lowest?.seller !== after.lowest?.seller;

export const acceptedOutcome = (change: Change, ids: number[]): BidOutcome => ({
  kind: "accepted",
  bids: change.bids.map((bid, index) => ({ id: ids[index] as number, amountCents: bid.amount, kind: bid.kind })),
  endsAt: change.endsAfter,
  previousLeaderId: change.before.lowest?.seller ?? null,
  leaderId: change.after.lowest?.seller ?? null,
  extended: change.endsAfter.getTime() !== change.endsBefore.getTime(),
});

/**
 * What a round means for the other parties: the sellers who lost the lead in one of its changes,
 * whether a late bid moved the end, and the bids and minimums entered on a seller's behalf (each
 * seller is told of them). Undefined when nobody is owed a notice.
 */
export function effectsOfRound(
  round: Round,
): { outbid: number[]; extended: boolean; onBehalf: OnBehalfEffect[] } | undefined {
  const outbid = new Set<number>();
  let extended = false;
  const onBehalf: OnBehalfEffect[] = [];
  for (const change of round.changes) {
    const previous = change.before.lowest?.seller;
    if (previous !== undefined && previous !== change.after.lowest?.seller) outbid.add(previous);
    if (change.endsAfter.getTime() !== change.endsBefore.getTime()) extended = true;
    if (change.onBehalf) onBehalf.push(change.onBehalf);
  }
  return outbid.size > 0 || extended || onBehalf.length > 0 ? { outbid: [...outbid], extended, onBehalf } : undefined;
}
