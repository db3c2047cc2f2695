import { counted, pluralOf } from "~/shared/words";
import type { AuctionStatus, auctions } from "~db/schema";
import type { Decrement } from "./bidding/bidding";

// An auction's life (issue 9), as pure rules: which status changes are legal, what the status is at
// a given moment (opening and closing happen on time whether or not the job has run yet), and how a
// late bid moves the end (soft close).

/** An auction as stored: the row the rules below read. */
export type AuctionRow = typeof auctions.$inferSelect;

/** The legal moves between statuses; everything else is refused. */
export const TRANSITIONS: Record<AuctionStatus, readonly AuctionStatus[]> = {
  draft: ["scheduled", "cancelled"],
  // Back to draft only before it opens; opening happens on time.
  scheduled: ["draft", "open", "cancelled"],
  open: ["closed", "cancelled"],
  closed: ["awarded", "cancelled"],
  awarded: [],
  cancelled: [],
};

export const canMove = (from: AuctionStatus, to: AuctionStatus) => TRANSITIONS[from].includes(to);

export const STATUS_LABELS: Record<AuctionStatus, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  open: "Open for bidding",
  closed: "Closed",
  awarded: "Awarded",
  cancelled: "Cancelled",
};

/** The status at `now`: a scheduled auction is open from its start and closed from its end. */
export function statusAt(auction: { status: AuctionStatus; startsAt: Date; endsAt: Date }, now: Date): AuctionStatus {
  const { status } = auction;
  if (status === "scheduled" && now >= auction.startsAt) return now >= auction.endsAt ? "closed" : "open";
  if (status === "open" && now >= auction.endsAt) return "closed";
  return status;
}

/**
 * A lot's status at `now` (issue 31): the auction's, except that a lot closes at its own end (lots
 * close one after another while the auction is open until the last).
 */
export function lotStatusAt(
  auction: { status: AuctionStatus; startsAt: Date },
  lot: { endsAt: Date },
  now: Date,
): AuctionStatus {
  return statusAt({ status: auction.status, startsAt: auction.startsAt, endsAt: lot.endsAt }, now);
}

/** Terms (reserve, times, decrement, soft close, category, area) change only before bidding starts. */
export const termsEditable = (status: AuctionStatus) => status === "draft" || status === "scheduled";

/** The terms and documents may change now: not yet open, and nothing bid. */
export const termsOpenForChange = (
  auction: { status: AuctionStatus; startsAt: Date; endsAt: Date; bidCount: number },
  now: Date,
) => termsEditable(statusAt(auction, now)) && auction.bidCount === 0;

export type SoftClose = {
  endsAt: Date;
  scheduledEndsAt: Date;
  softCloseWindowMinutes: number;
  softCloseExtensionMinutes: number;
  softCloseCapMinutes: number;
};

/**
 * The end after a bid at `bidAt`: a bid in the last N minutes moves it M minutes later, never past
 * the scheduled end plus the cap. Unchanged otherwise.
 */
export function endAfterBid(auction: SoftClose, bidAt: Date): Date {
  const window = auction.softCloseWindowMinutes * 60_000;
  const extension = auction.softCloseExtensionMinutes * 60_000;
  if (window === 0 || extension === 0) return auction.endsAt;
  if (auction.endsAt.getTime() - bidAt.getTime() > window) return auction.endsAt;
  const latest = auction.scheduledEndsAt.getTime() + auction.softCloseCapMinutes * 60_000;
  const extended = Math.min(latest, auction.endsAt.getTime() + extension);
  return extended > auction.endsAt.getTime() ? new Date(extended) : auction.endsAt;
}

export function decrementOf(auction: { decrementKind: "amount" | "percent"; decrementValue: number }): Decrement {
  return auction.decrementKind === "amount"
    ? { kind: "amount", cents: auction.decrementValue }
    : { kind: "percent", basisPoints: auction.decrementValue };
}

/** "$100.00" or "2.5 %". */
export function describeDecrement(decrement: Decrement, formatCents: (cents: number) => string): string {
  return decrement.kind === "amount"
    ? formatCents(decrement.cents)
    : `${(decrement.basisPoints / 100).toLocaleString("en-CA", { maximumFractionDigits: 2 })} %`;
}

/**
 * The soft close in words, or null without one: "a bid in the last 5 minutes moves the end 2 minutes
 * later, at most 30 minutes in all"; "in the last minute … 1 minute later" for ones. `bid` names what
 * moves the end ("bid", "new lowest bid").
 */
export function describeSoftClose(
  terms: Pick<SoftClose, "softCloseWindowMinutes" | "softCloseExtensionMinutes" | "softCloseCapMinutes">,
  bid = "bid",
): string | null {
  const { softCloseWindowMinutes: window, softCloseExtensionMinutes: extension, softCloseCapMinutes: cap } = terms;
  if (window <= 0 || extension <= 0) return null;
  const last = pluralOf(window, "the last minute", `the last ${counted(window, "minute", "minutes")}`);
  return `a ${bid} in ${last} moves the end ${counted(extension, "minute", "minutes")} later, at most ${counted(cap, "minute", "minutes")} in all`;
}

/** The share of a drop from `from` to `to`, for the large-drop question: 0.25 is 25 %. */
export const dropShare = (from: number, to: number) => (from > 0 ? (from - to) / from : 0);

/** A bid this far under the current price (or the reserve) is asked about once more: a typo guard. */
export const LARGE_DROP = 0.2;

/** "Seller A", "Seller B", … "Seller Z", "Seller AA", …: competitors as every seller sees them. */
export function sellerAlias(index: number): string {
  let letters = "";
  let rest = index;
  do {
    letters = String.fromCharCode(65 + (rest % 26)) + letters;
    rest = Math.floor(rest / 26) - 1;
  } while (rest >= 0);
  return `Seller ${letters}`;
}

/**
 * A sealed auction's bids may be read (by its side, its evaluator and staff) only once the deadline
 * has passed and it was not cancelled before: every page, list, download and stream checks this.
 */
export function sealedBidsReadable(
  auction: { kind: "reverse" | "sealed"; status: AuctionStatus; startsAt: Date; endsAt: Date },
  now: Date,
): boolean {
  const status = statusAt(auction, now);
  return auction.kind === "sealed" && (status === "closed" || status === "awarded") && now >= auction.endsAt;
}
