import { eq } from "drizzle-orm";
import type { MessageServices } from "~/messaging/messaging.server";
import { notifyOrganizations } from "~/notifications/notifications.server";
import type { Transaction } from "~db/database.server";
import { auctionInvitations, provinces, serviceAreas, services as servicesTable } from "~db/schema";
import { auctionLink, kindName } from "../auction-notices.server";
import type { AuctionRow } from "../auction-rules";
import { type TermsSnapshot, termsChanges } from "./terms-changes";

// When the buyer edits the terms of a published auction (before bidding opens, often because of a
// question), every invited seller is told what changed, in the edit's own transaction.

type TermsRow = Omit<TermsSnapshot, "serviceName" | "serviceAreaName" | "requirements"> &
  Pick<AuctionRow, "serviceId" | "serviceAreaId">;

async function snapshot(tx: Transaction, terms: TermsRow, requirements: string[]): Promise<TermsSnapshot> {
  const [names] = await tx
    .select({ service: servicesTable.name, city: serviceAreas.city, province: provinces.name })
    .from(servicesTable)
    .innerJoin(serviceAreas, eq(serviceAreas.id, terms.serviceAreaId))
    .innerJoin(provinces, eq(provinces.id, serviceAreas.provinceId))
    .where(eq(servicesTable.id, terms.serviceId));
  return {
    ...terms,
    requirements,
    serviceName: names?.service ?? "",
    serviceAreaName: names ? `${names.city} (${names.province})` : "",
  };
}

/** Tells every invited seller of a published auction what changed; the lines told (none: nobody told). */
export async function tellTermsChanged(
  services: MessageServices,
  tx: Transaction,
  before: { row: AuctionRow & Pick<TermsRow, "decrementKind" | "decrementValue">; requirements: string[] },
  after: { row: TermsRow; requirements: string[] },
): Promise<string[]> {
  if (before.row.status !== "scheduled") return [];
  const lines = termsChanges(
    await snapshot(tx, before.row, before.requirements),
    await snapshot(tx, after.row, after.requirements),
  );
  await tellInvitedOfChanges(services, tx, { id: before.row.id, kind: after.row.kind, title: after.row.title }, lines);
  return lines;
}

/**
 * Tells every invited seller what changed in a published auction's terms before bidding opens, one
 * line each (nothing when nothing changed): the terms form's changes, and a lotted auction's lots
 * (issue 31).
 */
export async function tellInvitedOfChanges(
  services: MessageServices,
  tx: Transaction,
  auction: { id: number; kind: "reverse" | "sealed"; title: string },
  lines: string[],
) {
  if (lines.length === 0) return;
  const invited = await tx
    .select({ organizationId: auctionInvitations.organizationId })
    .from(auctionInvitations)
    .where(eq(auctionInvitations.auctionId, auction.id));
  await notifyOrganizations(
    services,
    invited.map((row) => row.organizationId),
    {
      kind: "terms-changed",
      auctionId: auction.id,
      subject: `Terms changed: ${auction.title}`,
      lines: [
        `The buyer changed the terms of the ${kindName(auction)} "${auction.title}" before bidding opens:`,
        "",
        ...lines.map((line) => `- ${line}`),
        "",
        "Read the terms again here:",
        auctionLink(services, auction.id),
      ],
    },
    tx,
  );
}
