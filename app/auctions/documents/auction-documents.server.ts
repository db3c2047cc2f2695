import { and, asc, count, eq } from "drizzle-orm";
import type { RouterContextProvider } from "react-router";
import { appServicesContext } from "~/server/app-context";
import type { Database } from "~db/database.server";
import { auctionDocuments, auctionEvents, auctions } from "~db/schema";
import { requireAuction } from "../auction-access.server";
import { notifyAuction } from "../auction-changes.server";
import { type AuctionRow, termsOpenForChange } from "../auction-rules";
import { inspectDocument } from "./document-content.server";
import { DOCUMENT_MESSAGES, MAX_DOCUMENTS_PER_AUCTION } from "./document-types";

// An auction's documents (issue 9): its own side uploads and deletes them while the terms may still
// change; everyone who may see the auction downloads them. Each change is one transaction under the
// auction's row lock (the lock bids take), with its entry in the auction's event log.

type Context = Readonly<RouterContextProvider>;

/**
 * The signed-in user, the auction and who they are to it, with the database. Visitors are sent to
 * sign in; anyone who may not see the auction gets the same 404 as for one that does not exist.
 */
export async function requireAuctionViewer(request: Request, context: Context, rawAuctionId: string | undefined) {
  const found = await requireAuction(request, context, rawAuctionId);
  return { ...found, db: context.get(appServicesContext).db };
}

/** Documents may be added or removed only while the terms may change: before it opens, no bids. */
export const documentsEditable = (auction: AuctionRow, now = new Date()) => termsOpenForChange(auction, now);

export async function listDocuments(db: Database, auctionId: number) {
  return db
    .select({
      id: auctionDocuments.id,
      fileName: auctionDocuments.fileName,
      contentType: auctionDocuments.contentType,
      sizeBytes: auctionDocuments.sizeBytes,
      createdAt: auctionDocuments.createdAt,
    })
    .from(auctionDocuments)
    .where(eq(auctionDocuments.auctionId, auctionId))
    .orderBy(asc(auctionDocuments.id));
}

export async function findDocument(db: Database, auctionId: number, documentId: number) {
  const [document] = await db
    .select({ id: auctionDocuments.id, fileName: auctionDocuments.fileName })
    .from(auctionDocuments)
    .where(and(eq(auctionDocuments.id, documentId), eq(auctionDocuments.auctionId, auctionId)));
  return document;
}

/** A document with its bytes, only when it belongs to this auction. */
export async function documentForDownload(db: Database, auctionId: number, documentId: number) {
  const [document] = await db
    .select()
    .from(auctionDocuments)
    .where(and(eq(auctionDocuments.id, documentId), eq(auctionDocuments.auctionId, auctionId)));
  return document;
}

export type Uploader = { userId: number; organizationId: number };

export type DocumentChange =
  | { kind: "done"; documentId: number }
  | { kind: "refused"; status: 400 | 404 | 409 | 413; message: string; field?: "file" };

/** Checks the file, then stores it with its event, under the auction's lock. */
export async function addDocument(
  db: Database,
  auctionId: number,
  uploader: Uploader,
  file: { name: string; bytes: Buffer },
  now = new Date(),
): Promise<DocumentChange> {
  const inspected = inspectDocument(file.name, file.bytes);
  if (!inspected.ok) return { kind: "refused", status: inspected.status, message: inspected.message, field: "file" };
  return db.transaction(async (tx): Promise<DocumentChange> => {
    const [auction] = await tx.select().from(auctions).where(eq(auctions.id, auctionId)).for("update");
    if (!auction || auction.organizationId !== uploader.organizationId) {
      return { kind: "refused", status: 404, message: "This auction does not exist." };
    }
    if (!documentsEditable(auction, now)) return { kind: "refused", status: 409, message: DOCUMENT_MESSAGES.locked };
    const [stored] = await tx
      .select({ count: count() })
      .from(auctionDocuments)
      .where(eq(auctionDocuments.auctionId, auctionId));
    if ((stored?.count ?? 0) >= MAX_DOCUMENTS_PER_AUCTION) {
      return { kind: "refused", status: 409, message: DOCUMENT_MESSAGES.tooMany, field: "file" };
    }
    const [document] = await tx
      .insert(auctionDocuments)
      .values({
        auctionId,
        fileName: inspected.fileName,
        contentType: inspected.contentType,
        sizeBytes: inspected.sizeBytes,
        content: file.bytes,
        uploadedByUserId: uploader.userId,
        createdAt: now,
      })
      .returning({ id: auctionDocuments.id });
    if (!document) throw new Error("no document row");
    await tx.insert(auctionEvents).values({
      auctionId,
      kind: "document-added",
      userId: uploader.userId,
      organizationId: uploader.organizationId,
      data: {
        documentId: document.id,
        fileName: inspected.fileName,
        contentType: inspected.contentType,
        sizeBytes: inspected.sizeBytes,
      },
      createdAt: now,
    });
    await notifyAuction(tx, auctionId);
    return { kind: "done", documentId: document.id };
  });
}

/** Deletes a document of the auction with its event, under the auction's lock. */
export async function removeDocument(
  db: Database,
  auctionId: number,
  remover: Uploader,
  documentId: number,
  now = new Date(),
): Promise<DocumentChange> {
  return db.transaction(async (tx): Promise<DocumentChange> => {
    const [auction] = await tx.select().from(auctions).where(eq(auctions.id, auctionId)).for("update");
    if (!auction || auction.organizationId !== remover.organizationId) {
      return { kind: "refused", status: 404, message: "This auction does not exist." };
    }
    if (!documentsEditable(auction, now)) return { kind: "refused", status: 409, message: DOCUMENT_MESSAGES.locked };
    const [removed] = await tx
      .delete(auctionDocuments)
      .where(and(eq(auctionDocuments.id, documentId), eq(auctionDocuments.auctionId, auctionId)))
      .returning({ id: auctionDocuments.id, fileName: auctionDocuments.fileName });
    if (!removed) return { kind: "refused", status: 404, message: DOCUMENT_MESSAGES.gone };
    await tx.insert(auctionEvents).values({
      auctionId,
      kind: "document-removed",
      userId: remover.userId,
      organizationId: remover.organizationId,
      data: { documentId: removed.id, fileName: removed.fileName },
      createdAt: now,
    });
    await notifyAuction(tx, auctionId);
    return { kind: "done", documentId: removed.id };
  });
}

/** RFC 5987 / 6266: an ASCII fallback name, and the exact name as UTF-8 percent-encoded. */
/**
 * A stored file as a download that is never rendered in our origin: attachment, and a sandbox policy
 * so that even a browser that displays it runs no script with our cookies (X-Content-Type-Options:
 * nosniff is on every response already, app/platform/security-headers.ts).
 */
export function fileDownload(file: { fileName: string; contentType: string; content: Buffer }): Response {
  return new Response(new Uint8Array(file.content), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.content.length),
      "Content-Disposition": contentDisposition(file.fileName),
      "Content-Security-Policy": "sandbox",
      "Cross-Origin-Resource-Policy": "same-origin",
      "Cache-Control": "private, no-store",
    },
  });
}

export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\%;]/g, "_") || "document";
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
