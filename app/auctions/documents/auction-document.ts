import { data } from "react-router";
import { parseId } from "~/shared/ids";
import type { Route } from "./+types/auction-document";
import { documentForDownload, fileDownload, requireAuctionViewer } from "./auction-documents.server";

// GET /auctions/:auctionId/documents/:documentId: the file, for everyone who may see the auction.
// Always a download, never rendered in our origin: attachment, no sniffing, and a sandbox policy so
// that even a browser that displays it runs no script with our cookies.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auction, db } = await requireAuctionViewer(request, context, params.auctionId);
  const documentId = parseId(params.documentId);
  const document = documentId ? await documentForDownload(db, auction.id, documentId) : undefined;
  if (!document) throw data(null, { status: 404 });
  return fileDownload(document);
}
