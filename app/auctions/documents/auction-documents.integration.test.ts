import { request as httpRequest } from "node:http";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureStaffUser } from "~/accounts/staff/staff.server";
import { auctionDocuments, auctionEvents, auctions } from "~db/schema";
import {
  catalogueForAuctions,
  createAuctionRow,
  createBuyer,
  createSeller,
  type Party,
} from "../../../tests/support/auction-fixtures";
import { ALLOWED_SAMPLES, EXE, PDF, TXT } from "../../../tests/support/document-samples";
import { expectIn, expectNotIn } from "../../../tests/support/html";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { placeManualBid } from "../bidding/bid-queue.server";
import { DOCUMENT_MESSAGES, MAX_DOCUMENT_BYTES, mismatchMessage } from "./document-types";

// An auction's documents over HTTP (issue 9): its own side uploads them while the terms may change,
// each file's content is checked against its name, sizes and counts are capped before anything is
// stored, and everyone who may see the auction downloads them with headers that keep them inert.

type Client = ReturnType<typeof createClient>;
const STAFF = { email: "documents-staff@example.com", password: "documents-staff-password" };

describe.each(databaseKinds)("auction documents on %s", (kind) => {
  let app: TestApp;
  let catalogue: Awaited<ReturnType<typeof catalogueForAuctions>>;
  let buyer: Party;
  let otherBuyer: Party;
  let seller: Party;
  let outsiderSeller: Party;
  let owner: Client;
  let other: Client;
  let invited: Client;
  let outsider: Client;
  let staff: Client;

  async function signedIn(party: { email: string; password: string }) {
    const client = createClient(app.baseURL);
    const response = await client.request("/login", { form: { email: party.email, password: party.password } });
    expect(response.status).toBe(302);
    return client;
  }

  beforeAll(async () => {
    app = await startTestApp(kind);
    const { db } = app.services;
    catalogue = await catalogueForAuctions(db);
    buyer = await createBuyer(db);
    otherBuyer = await createBuyer(db);
    const offers = { serviceIds: [catalogue.serviceId], serviceAreaIds: [catalogue.serviceAreaId] };
    seller = await createSeller(db, offers);
    outsiderSeller = await createSeller(db, offers);
    await ensureStaffUser(db, STAFF.email, STAFF.password);
    [owner, other, invited, outsider, staff] = await Promise.all([
      signedIn(buyer),
      signedIn(otherBuyer),
      signedIn(seller),
      signedIn(outsiderSeller),
      signedIn(STAFF),
    ]);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const db = () => app.services.db;
  const draft = (options: Partial<Parameters<typeof createAuctionRow>[1]> = {}) =>
    createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      status: "draft",
      startsAt: new Date(Date.now() + 86_400_000),
      endsAt: new Date(Date.now() + 2 * 86_400_000),
      sellers: [seller],
      ...options,
    });
  const page = (auctionId: number) => `/auctions/${auctionId}/documents`;

  function upload(client: Client, auctionId: number, name: string, bytes: Buffer, type = "application/octet-stream") {
    const form = new FormData();
    form.set("intent", "upload");
    form.set("file", new File([new Uint8Array(bytes)], name, { type }));
    return client.request(page(auctionId), { multipart: form });
  }
  const documentsOf = (auctionId: number) =>
    db().select().from(auctionDocuments).where(eq(auctionDocuments.auctionId, auctionId));
  const eventsOf = (auctionId: number, eventKind: string) =>
    db()
      .select()
      .from(auctionEvents)
      .where(and(eq(auctionEvents.auctionId, auctionId), eq(auctionEvents.kind, eventKind)));

  /** The GOV.UK pattern: the message at the file input and as a link to it in the summary. */
  function expectFileError(html: string, message: string) {
    const escaped = message.replaceAll("'", "&#x27;");
    expectIn(
      html,
      `<p id="document-file-error" class="field__error"><span class="visually-hidden">Error:</span> <!-- -->${escaped}</p>`,
    );
    expectIn(html, `<a href="#document-file">${escaped}</a>`);
    expectIn(html, 'aria-invalid="true"');
  }

  it("stores each allowed type, checked by content, and lists it", async () => {
    const auction = await draft();
    for (const sample of ALLOWED_SAMPLES) {
      // What the browser claims is ignored: the type comes from the checked content and name.
      const response = await upload(owner, auction.id, sample.name, sample.bytes, "text/html");
      expect(response.status, sample.name).toBe(302);
      expect(response.headers.get("location")).toBe(`${page(auction.id)}?done=added`);
    }
    const rows = await documentsOf(auction.id);
    expect(rows.map((row) => [row.fileName, row.contentType, row.sizeBytes])).toEqual(
      ALLOWED_SAMPLES.map((sample) => [sample.name, sample.contentType, sample.bytes.length]),
    );
    expect(rows.every((row, index) => row.content.equals(ALLOWED_SAMPLES[index]?.bytes ?? Buffer.alloc(0)))).toBe(true);
    expect(rows.every((row) => row.uploadedByUserId === buyer.userId)).toBe(true);
    const events = await eventsOf(auction.id, "document-added");
    expect(events).toHaveLength(ALLOWED_SAMPLES.length);
    expect(events[0]).toMatchObject({
      userId: buyer.userId,
      organizationId: buyer.organizationId,
      data: { documentId: rows[0]?.id, fileName: "Scope of work.pdf", contentType: "application/pdf" },
    });

    const listed = await owner.request(`${page(auction.id)}?done=added`);
    expect(listed.status).toBe(200);
    const html = await listed.text();
    expectIn(html, "Document uploaded");
    expectIn(html, `<a href="${page(auction.id)}/${rows[0]?.id}" download="">Scope of work.pdf</a>`);
    expectIn(html, `action="${page(auction.id)}" encType="multipart/form-data" method="post"`);
    expectIn(html, 'type="file"');
    expectIn(html, 'accept=".pdf,.doc,.docx,.xls,.xlsx,.csv,.txt,.png,.jpg,.jpeg,.zip"');
    expectIn(
      html,
      "PDF, Word (.doc, .docx), Excel (.xls, .xlsx), CSV, plain text (.txt), PNG, JPEG or ZIP; 10 MB at most.",
    );
  });

  it("refuses a file whose content is not what its name says, and writes nothing", async () => {
    const auction = await draft();
    const cases: [string, Buffer, string][] = [
      ["setup.exe", EXE, DOCUMENT_MESSAGES.type],
      ["setup.pdf", EXE, mismatchMessage("pdf")],
      ["setup.docx", EXE, mismatchMessage("docx")],
      ["setup.txt", EXE, DOCUMENT_MESSAGES.text],
      ["invoice.png", PDF, mismatchMessage("png")],
      ["page.html", Buffer.from("<script>alert(1)</script>"), DOCUMENT_MESSAGES.type],
      ["empty.pdf", Buffer.alloc(0), DOCUMENT_MESSAGES.empty],
    ];
    for (const [name, bytes, message] of cases) {
      const response = await upload(owner, auction.id, name, bytes, "application/pdf");
      expect(response.status, name).toBe(400);
      expectFileError(await response.text(), message);
    }
    const noFile = new FormData();
    noFile.set("intent", "upload");
    noFile.set("file", new File([], "", { type: "application/octet-stream" }));
    const none = await owner.request(page(auction.id), { multipart: noFile });
    expect(none.status).toBe(400);
    expectFileError(await none.text(), DOCUMENT_MESSAGES.none);
    // A script's body without the file part at all: the same message, never the validator's.
    const noPart = new FormData();
    noPart.set("intent", "upload");
    const missing = await owner.request(page(auction.id), { multipart: noPart });
    expect(missing.status).toBe(400);
    expectFileError(await missing.text(), DOCUMENT_MESSAGES.none);
    const two = new FormData();
    two.set("intent", "upload");
    two.append("file", new File([new Uint8Array(PDF)], "a.pdf"));
    two.append("file", new File([new Uint8Array(PDF)], "b.pdf"));
    const several = await owner.request(page(auction.id), { multipart: two });
    expect(several.status).toBe(400);
    expectFileError(await several.text(), DOCUMENT_MESSAGES.several);
    expect(await documentsOf(auction.id)).toEqual([]);
    expect(await eventsOf(auction.id, "document-added")).toEqual([]);
  });

  it("stores the file name cleaned", async () => {
    const auction = await draft();
    const response = await upload(owner, auction.id, 'C:\\Users\\sam\\Site "plan"\u202E.pdf', PDF);
    expect(response.status).toBe(302);
    const [row] = await documentsOf(auction.id);
    expect(row?.fileName).toBe("Site _plan_.pdf");
  });

  /** A POST written by hand: the headers, then `chunks` (each awaited), to see when the server answers. */
  function rawPost(
    path: string,
    cookie: string,
    headers: Record<string, string>,
    chunks: AsyncIterable<Buffer>,
  ): Promise<{ status?: number; text: string; error?: string }> {
    return new Promise((resolve) => {
      const url = new URL(path, app.baseURL);
      const request = httpRequest(url, { method: "POST", headers: { cookie, ...headers } }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode, text }));
        response.on("error", (error) => resolve({ status: response.statusCode, text, error: error.message }));
      });
      request.on("error", (error) => resolve({ text: "", error: error.message }));
      (async () => {
        for await (const chunk of chunks) {
          if (!request.write(chunk)) await new Promise((drained) => request.once("drain", drained));
        }
        request.end();
      })().catch(() => {});
    });
  }
  const cookieOf = (client: Client) => [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  async function* repeated(total: number, chunk = 256 * 1024): AsyncIterable<Buffer> {
    const block = Buffer.alloc(chunk, 0x41);
    for (let sent = 0; sent < total; sent += chunk) yield block.subarray(0, Math.min(chunk, total - sent));
  }

  it("refuses a file over 10 MB with 413 and a message at the field, storing nothing", async () => {
    const auction = await draft();
    // Just over the limit: the body is read (it is under the body ceiling), the file is too big.
    const justOver = Buffer.concat([PDF, Buffer.alloc(MAX_DOCUMENT_BYTES + 1 - PDF.length)]);
    const response = await upload(owner, auction.id, "big.pdf", justOver, "application/pdf");
    expect(response.status).toBe(413);
    expectFileError(await response.text(), DOCUMENT_MESSAGES.tooBig);

    // Content-Length says too much: refused from the header, the rest is thrown away unread.
    const boundary = "----upload-boundary";
    const declared = 12 * 1024 * 1024;
    const big = await rawPost(
      page(auction.id),
      cookieOf(owner),
      { "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(declared) },
      repeated(declared),
    );
    expect(big.status).toBe(413);
    expectFileError(big.text, DOCUMENT_MESSAGES.tooBig);

    // No Content-Length (chunked): counted as it streams.
    const chunked = await rawPost(
      page(auction.id),
      cookieOf(owner),
      { "content-type": `multipart/form-data; boundary=${boundary}`, "transfer-encoding": "chunked" },
      repeated(11 * 1024 * 1024),
    );
    expect(chunked.status).toBe(413);
    expectFileError(chunked.text, DOCUMENT_MESSAGES.tooBig);

    // Far too much declared: the connection is given up at once, and certainly no 5xx.
    const huge = await rawPost(
      page(auction.id),
      cookieOf(owner),
      { "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(2 * 1024 ** 3) },
      repeated(1024 * 1024),
    );
    if (huge.status !== undefined) expect(huge.status).toBe(413);
    else expect(huge.error).toBeDefined();

    expect(await documentsOf(auction.id)).toEqual([]);
    expect(await eventsOf(auction.id, "document-added")).toEqual([]);
    // The app still answers.
    expect((await owner.request(page(auction.id))).status).toBe(200);
  });

  it("answers a malformed body with 400", async () => {
    const auction = await draft();
    const response = await fetch(`${app.baseURL}${page(auction.id)}`, {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=nothing-like-it", cookie: cookieOf(owner) },
      body: "not multipart at all",
      redirect: "manual",
    });
    expect(response.status).toBe(400);
    expectIn(await response.text(), DOCUMENT_MESSAGES.unreadable);
  });

  it("keeps at most 20 documents per auction", async () => {
    const auction = await draft();
    for (let index = 1; index <= 20; index += 1) {
      expect((await upload(owner, auction.id, `note-${index}.txt`, TXT)).status).toBe(302);
    }
    const refused = await upload(owner, auction.id, "note-21.txt", TXT);
    expect(refused.status).toBe(409);
    expectFileError(await refused.text(), DOCUMENT_MESSAGES.tooMany);
    expect(await documentsOf(auction.id)).toHaveLength(20);
  });

  it("deletes a document after a confirmation, with its event", async () => {
    const auction = await draft();
    await upload(owner, auction.id, "keep.pdf", PDF);
    await upload(owner, auction.id, "remove.pdf", PDF);
    const [kept, doomed] = await documentsOf(auction.id);
    const asked = await owner.request(page(auction.id), {
      form: { intent: "delete", documentId: String(doomed?.id) },
    });
    expect(asked.status).toBe(200);
    const question = await asked.text();
    expectIn(question, "Delete remove.pdf?");
    expectIn(question, '<input type="hidden" name="confirm" value="yes"/>');
    expect(await documentsOf(auction.id)).toHaveLength(2);

    const confirmed = await owner.request(page(auction.id), {
      form: { intent: "delete", documentId: String(doomed?.id), confirm: "yes" },
    });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe(`${page(auction.id)}?done=removed`);
    expect((await documentsOf(auction.id)).map((row) => row.id)).toEqual([kept?.id]);
    const [event] = await eventsOf(auction.id, "document-removed");
    expect(event).toMatchObject({ userId: buyer.userId, data: { documentId: doomed?.id, fileName: "remove.pdf" } });

    // Gone already, or of another auction: 404 with the message, nothing touched.
    const again = await owner.request(page(auction.id), {
      form: { intent: "delete", documentId: String(doomed?.id), confirm: "yes" },
    });
    expect(again.status).toBe(404);
    expectIn(await again.text(), DOCUMENT_MESSAGES.gone);
    const elsewhere = await draft();
    const wrongAuction = await owner.request(page(elsewhere.id), {
      form: { intent: "delete", documentId: String(kept?.id), confirm: "yes" },
    });
    expect(wrongAuction.status).toBe(404);
    expect(await documentsOf(auction.id)).toHaveLength(1);
  });

  it("lets only the auction's own side change documents; staff read; visitors sign in", async () => {
    const auction = await draft({ status: "scheduled" });
    expect((await upload(owner, auction.id, "terms.pdf", PDF)).status).toBe(302);
    for (const client of [other, invited, outsider]) {
      expect((await client.request(page(auction.id))).status).toBe(404);
      expect((await upload(client, auction.id, "mine.pdf", PDF)).status).toBe(404);
    }
    const staffPage = await staff.request(page(auction.id));
    expect(staffPage.status).toBe(200);
    const html = await staffPage.text();
    expectIn(html, "terms.pdf");
    expectNotIn(html, 'type="file"');
    expectIn(html, "Only the organization that runs this auction can add or remove its documents.");
    expect((await upload(staff, auction.id, "staff.pdf", PDF)).status).toBe(403);

    const visitor = createClient(app.baseURL);
    const visit = await visitor.request(page(auction.id));
    expect(visit.status).toBe(302);
    expect(visit.headers.get("location")).toBe(`/login?ref=/auctions/${auction.id}/documents`);
    expect((await upload(visitor, auction.id, "visitor.pdf", PDF)).status).toBe(302);
    expect((await owner.request("/auctions/999999/documents")).status).toBe(404);
    expect((await owner.request("/auctions/abc/documents")).status).toBe(404);
    expect(await documentsOf(auction.id)).toHaveLength(1);
  });

  it("refuses changes once bidding has started or may start (409)", async () => {
    const auction = await draft({ status: "open", startsAt: new Date(Date.now() - 60_000) });
    await db().insert(auctionDocuments).values({
      auctionId: auction.id,
      fileName: "terms.pdf",
      contentType: "application/pdf",
      sizeBytes: PDF.length,
      content: PDF,
    });
    const [document] = await documentsOf(auction.id);
    const bid = await placeManualBid(db(), {
      auctionId: auction.id,
      organizationId: seller.organizationId,
      userId: seller.userId,
      amountCents: 900_000,
    });
    expect(bid.kind).toBe("accepted");
    const refused = await upload(owner, auction.id, "late.pdf", PDF);
    expect(refused.status).toBe(409);
    expectIn(await refused.text(), DOCUMENT_MESSAGES.locked);
    const deletion = await owner.request(page(auction.id), {
      form: { intent: "delete", documentId: String(document?.id), confirm: "yes" },
    });
    expect(deletion.status).toBe(409);
    const html = await (await owner.request(page(auction.id))).text();
    expectIn(html, DOCUMENT_MESSAGES.locked);
    expectNotIn(html, 'type="file"');
    expect(await documentsOf(auction.id)).toHaveLength(1);

    // Scheduled, but its start has passed: open for bidding although nobody has bid yet.
    const started = await draft({ status: "scheduled", startsAt: new Date(Date.now() - 1_000) });
    expect((await upload(owner, started.id, "late.pdf", PDF)).status).toBe(409);
    expect(await documentsOf(started.id)).toEqual([]);
  });

  describe("downloads", () => {
    it("sends the file as an attachment that cannot run in our origin", async () => {
      const auction = await draft();
      await upload(owner, auction.id, "Plan d'accès – été (v2).pdf", PDF);
      const [row] = await documentsOf(auction.id);
      const response = await owner.request(`${page(auction.id)}/${row?.id}`);
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(PDF)).toBe(true);
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect(response.headers.get("content-disposition")).toBe(
        "attachment; filename=\"Plan d'acc_s _ _t_ (v2).pdf\"; filename*=UTF-8''Plan%20d%27acc%C3%A8s%20%E2%80%93%20%C3%A9t%C3%A9%20%28v2%29.pdf",
      );
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      // The app's own policy and the sandbox: a browser enforces both.
      expect(response.headers.get("content-security-policy")?.split(/,\s*/)).toContain("sandbox");
    });

    it("lets invited sellers download once the auction is published, and nobody else", async () => {
      const auction = await draft();
      await upload(owner, auction.id, "terms.pdf", PDF);
      const [row] = await documentsOf(auction.id);
      const file = `${page(auction.id)}/${row?.id}`;
      expect((await owner.request(file)).status).toBe(200);
      expect((await staff.request(file)).status).toBe(200);
      // A draft is the buyer's own business.
      expect((await invited.request(file)).status).toBe(404);
      await db().update(auctions).set({ status: "scheduled" }).where(eq(auctions.id, auction.id));
      expect((await invited.request(file)).status).toBe(200);
      for (const client of [other, outsider]) expect((await client.request(file)).status).toBe(404);
      const visitor = await createClient(app.baseURL).request(file);
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("location")).toBe(`/login?ref=${file}`);
    });

    it("answers 404 for another auction's document and for ids that do not exist", async () => {
      const first = await draft();
      const second = await draft();
      await upload(owner, first.id, "first.pdf", PDF);
      const [row] = await documentsOf(first.id);
      expect((await owner.request(`${page(second.id)}/${row?.id}`)).status).toBe(404);
      expect((await owner.request(`${page(first.id)}/999999`)).status).toBe(404);
      expect((await owner.request(`${page(first.id)}/x1`)).status).toBe(404);
    });
  });
});
