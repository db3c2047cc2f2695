import { data } from "react-router";
import { parseId } from "~/shared/ids";
import { fileDownload, requireAuctionViewer } from "../documents/auction-documents.server";
import type { Route } from "./+types/auction-sealed-document";
import { ownSealedDocumentForDownload, sealedDocumentForDownload } from "./sealed-bids.server";

// GET /auctions/:auctionId/sealed-bids/:bidId/documents/:documentId: a sealed bid's document. The
// seller who sent it may download it at any time; the auction's side, its evaluator and staff only
// after the deadline; everyone else, and everyone before the deadline, gets the same 404. A seller's
// page links their own documents as /auctions/:auctionId/sealed-bids/own/documents/:requirementId.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auction, viewer, db } = await requireAuctionViewer(request, context, params.auctionId);
  if (params.bidId === "own") {
    // …/sealed-bids/own/documents/<requirement id>: how a seller reads their own documents.
    const requirementId = parseId(params.documentId);
    const own =
      viewer.kind === "seller" && requirementId
        ? await ownSealedDocumentForDownload(db, auction, viewer.organizationId, requirementId)
        : undefined;
    if (!own) throw data(null, { status: 404 });
    return fileDownload(own);
  }
  const bidId = parseId(params.bidId);
  const documentId = parseId(params.documentId);
  const reader =
    viewer.kind === "seller"
      ? { kind: "seller" as const, organizationId: viewer.organizationId }
      : { kind: "full" as const };
  const document =
    bidId && documentId ? await sealedDocumentForDownload(db, auction, reader, bidId, documentId) : undefined;
  if (!document) throw data(null, { status: 404 });
  return fileDownload(document);
}
