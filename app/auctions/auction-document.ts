import { data } from "react-router";
import { parseId } from "~/catalogue/catalogue-schemas";
import type { Route } from "./+types/auction-document";
import { contentDisposition, documentForDownload, requireAuctionViewer } from "./auction-documents.server";

// GET /auctions/:auctionId/documents/:documentId: the file, for everyone who may see the auction.
// Always a download, never rendered in our origin: attachment, no sniffing, and a sandbox policy so
// that even a browser that displays it runs no script with our cookies.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auction, db } = await requireAuctionViewer(request, context, params.auctionId);
  const documentId = parseId(params.documentId);
  const document = documentId ? await documentForDownload(db, auction.id, documentId) : undefined;
  if (!document) throw data(null, { status: 404 });
  return new Response(new Uint8Array(document.content), {
    headers: {
      "Content-Type": document.contentType,
      "Content-Length": String(document.content.length),
      "Content-Disposition": contentDisposition(document.fileName),
      // X-Content-Type-Options: nosniff is on every response already (app/platform/security-headers.ts).
      "Content-Security-Policy": "sandbox",
      "Cross-Origin-Resource-Policy": "same-origin",
      "Cache-Control": "private, no-store",
    },
  });
}
