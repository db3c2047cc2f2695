import { Role } from "~/shared/roles";
import type { Viewer } from "../auction-views.server";

// Who may enter a bid or a minimum on an invited seller's behalf (issue 21: a seller whose connection
// failed phones the auctioneer). The auctioneer is the consultant: the consultant organization running
// the auction, or the one named to evaluate it; the buyer's side only when no consultant is part of
// the auction; staff always. Sellers and everyone else never (decision 020).

export function mayEnterOnBehalf(
  user: { role: number },
  viewer: Viewer,
  auction: { evaluatorOrganizationId: number | null },
): boolean {
  if (viewer.kind === "staff") return true;
  if (viewer.kind === "evaluator") return user.role === Role.Consultant;
  if (viewer.kind !== "owner") return false;
  if (user.role === Role.Consultant) return true;
  return user.role === Role.Buyer && auction.evaluatorOrganizationId === null;
}
