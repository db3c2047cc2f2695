import { utcMinute } from "~/shared/dates";
import { formatCents } from "~/shared/money";
import { decrementOf, describeDecrement, describeSoftClose } from "../auction-rules";
import type { AuctionTerms } from "../lifecycle/auction-terms";

// What changed in an auction's terms, in words for the e-mail every invited seller gets when the
// buyer edits a published auction (issue 21: terms changed because of a question). Only what sellers
// read on the auction page; who evaluates the bids is the buyer's own business.

/** The terms a seller reads, with the category's and area's names instead of their ids. */
export type TermsSnapshot = Pick<
  AuctionTerms,
  | "kind"
  | "title"
  | "description"
  | "reserveCents"
  | "decrementKind"
  | "decrementValue"
  | "startsAt"
  | "endsAt"
  | "softCloseWindowMinutes"
  | "softCloseExtensionMinutes"
  | "softCloseCapMinutes"
  | "sellerView"
  | "priceWeightPercent"
  | "technicalPassMark"
  | "requirements"
> & { serviceName: string; serviceAreaName: string };

const softClose = (terms: TermsSnapshot) => describeSoftClose(terms) ?? "none";

const ranking = (terms: TermsSnapshot) =>
  `price ${terms.priceWeightPercent} %, technical score ${100 - terms.priceWeightPercent} %${
    terms.technicalPassMark === null ? "" : `, pass mark ${terms.technicalPassMark}`
  }`;

const sellerViewText = (terms: TermsSnapshot) => (terms.sellerView === "rank" ? "their rank only" : "the lowest bid");

const kindText = (kind: TermsSnapshot["kind"]) => (kind === "sealed" ? "sealed-bid auction" : "reverse auction");

/** One line per change, "What: before → after"; empty when nothing a seller reads changed. */
export function termsChanges(before: TermsSnapshot, after: TermsSnapshot): string[] {
  const lines: string[] = [];
  const compare = (label: string, from: string, to: string) => {
    if (from !== to) lines.push(`${label}: ${from} → ${to}`);
  };
  compare("Kind", kindText(before.kind), kindText(after.kind));
  compare("Title", before.title, after.title);
  if (before.description !== after.description) lines.push("Description: changed (read it on the auction's page)");
  compare("Service category", before.serviceName, after.serviceName);
  compare("Service area", before.serviceAreaName, after.serviceAreaName);
  compare("Reserve price", formatCents(before.reserveCents), formatCents(after.reserveCents));
  compare("Bidding starts", utcMinute(before.startsAt), utcMinute(after.startsAt));
  compare(
    after.kind === "sealed" ? "Submission deadline" : "Bidding ends",
    utcMinute(before.endsAt),
    utcMinute(after.endsAt),
  );
  if (after.kind === "reverse") {
    compare(
      "Minimum decrement",
      before.kind === "reverse" ? describeDecrement(decrementOf(before), formatCents) : "none",
      describeDecrement(decrementOf(after), formatCents),
    );
    compare("Soft close", before.kind === "reverse" ? softClose(before) : "none", softClose(after));
    compare("What sellers see", sellerViewText(before), sellerViewText(after));
  } else {
    compare(
      "Each bid must carry",
      before.requirements.join(", ") || "nothing listed",
      after.requirements.join(", ") || "nothing listed",
    );
  }
  compare("Ranking", ranking(before), ranking(after));
  return lines;
}
