// An auction's terms as the buyer sets them (issue 9). Apart from the module that writes them, which
// sends the "terms changed" e-mail: that e-mail reads this type too, and no import goes in a circle.

export type AuctionTerms = {
  kind: "reverse" | "sealed";
  title: string;
  description: string;
  serviceId: number;
  serviceAreaId: number;
  reserveCents: number;
  decrementKind: "amount" | "percent";
  decrementValue: number;
  startsAt: Date;
  endsAt: Date;
  softCloseWindowMinutes: number;
  softCloseExtensionMinutes: number;
  softCloseCapMinutes: number;
  /** The consultant organization evaluating the bids; null: the auction's own organization. */
  evaluatorOrganizationId: number | null;
  priceWeightPercent: number;
  technicalPassMark: number | null;
  /** What sellers see of a reverse auction (issue 31): the lowest price, or their rank only. Absent: the lowest. */
  sellerView?: "lowest" | "rank";
  /** A sealed auction's required documents, in order (empty for a reverse auction). */
  requirements: string[];
};
