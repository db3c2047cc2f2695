import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { inflateSync } from "node:zlib";
import { create as createFont, type Font } from "fontkit";
import PDFDocument from "pdfkit";
import { utcDay } from "~/shared/dates";
import { formatCents } from "~/shared/money";
import { GST_RATE_PERCENT } from "./invoice-amounts";
import type { InvoiceIssuer } from "./invoice-issuer";

// The PDFs of invoices and credit notes (issue 19), made once at issue and kept: pdfkit writes a
// tagged PDF (a structure tree of headings, paragraphs and a table with header cells, the document's
// language, its title shown in the viewer's title bar) with real text a screen reader and a search
// can read, marked PDF/UA-1 with its font embedded. The same input makes the same bytes (the creation
// date is the issue date).

/**
 * DejaVu Sans, regular and bold, from @fontsource/dejavu-sans: its one "latin" file is the whole font
 * (Latin with its extensions, Greek, Cyrillic), so any name or address prints without a missing glyph,
 * and pdfkit embeds only the glyphs used. PDF/UA asks for embedded fonts (the standard Helvetica is
 * not). Resolved through the package, so the build and the container find it in node_modules, and
 * opened once per process when the module loads (a missing font stops the start, not an award): a
 * font opened per PDF reads its layout tables again each time, a few hundred milliseconds inside the
 * issuing transaction. pdfkit takes the opened font as it is (only its own subset is per document).
 */
const FONTS = (() => {
  const resolve = createRequire(import.meta.url).resolve;
  const open = (weight: number) => {
    const file = resolve(`@fontsource/dejavu-sans/files/dejavu-sans-latin-${weight}-normal.woff`);
    return createFont(trueTypeFromWoff(readFileSync(file))) as Font;
  };
  // @types/pdfkit knows only files and buffers as font sources.
  return { regular: open(400) as unknown as Buffer, bold: open(700) as unknown as Buffer };
})();
const REGULAR = "Invoice-Regular";
const BOLD = "Invoice-Bold";

/**
 * The TrueType font inside a WOFF 1.0 file (its tables, each zlib-compressed, under a new directory).
 * fontkit reads WOFF, but inflates a whole table at every read of it, glyph by glyph: seconds per PDF.
 */
function trueTypeFromWoff(woff: Buffer): Buffer {
  if (woff.toString("latin1", 0, 4) !== "wOFF") throw new Error("Not a WOFF 1.0 font file");
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, index) => {
    const at = 44 + 20 * index;
    const offset = woff.readUInt32BE(at + 4);
    const compressed = woff.readUInt32BE(at + 8);
    const length = woff.readUInt32BE(at + 12);
    const data = woff.subarray(offset, offset + compressed);
    return {
      tag: woff.readUInt32BE(at),
      checksum: woff.readUInt32BE(at + 16),
      data: compressed < length ? inflateSync(data) : data,
    };
  });
  const padded = (length: number) => (length + 3) & ~3;
  const directory = 12 + 16 * count;
  const font = Buffer.alloc(tables.reduce((size, table) => size + padded(table.data.length), directory));
  font.writeUInt32BE(woff.readUInt32BE(4), 0); // the flavour: TrueType outlines
  font.writeUInt16BE(count, 4);
  const searchRange = 2 ** Math.floor(Math.log2(count));
  font.writeUInt16BE(searchRange * 16, 6);
  font.writeUInt16BE(Math.log2(searchRange), 8);
  font.writeUInt16BE((count - searchRange) * 16, 10);
  let offset = directory;
  tables.forEach((table, index) => {
    font.writeUInt32BE(table.tag, 12 + 16 * index);
    font.writeUInt32BE(table.checksum, 16 + 16 * index);
    font.writeUInt32BE(offset, 20 + 16 * index);
    font.writeUInt32BE(table.data.length, 24 + 16 * index);
    table.data.copy(font, offset);
    offset += padded(table.data.length);
  });
  return font;
}

export type InvoiceDocument = {
  number: string;
  issuedAt: Date;
  auctionId: number;
  auctionTitle: string;
  billToName: string;
  billToContact: string | null;
  billToEmail: string | null;
  billToAddress: string;
  billingPreference: string;
  feeCents: number;
  gstCents: number;
  totalCents: number;
};

export type CreditNoteDocument = {
  number: string;
  issuedAt: Date;
  reason: string;
  amountCents: number;
  gstCents: number;
  totalCents: number;
  invoice: Pick<
    InvoiceDocument,
    "number" | "issuedAt" | "auctionId" | "auctionTitle" | "billToName" | "billToContact" | "billToAddress"
  >;
};

export const LINE_DESCRIPTION = "Per-auction buyer fee";

export function invoicePdf(invoice: InvoiceDocument, issuer: InvoiceIssuer): Promise<Buffer> {
  return render(`Invoice ${invoice.number}`, invoice.issuedAt, (write) => {
    write.heading(`Invoice ${invoice.number}`);
    write.issuer(issuer);
    write.facts([
      ["Invoice number", invoice.number],
      ["Invoice date", utcDay(invoice.issuedAt)],
      ["Auction", `No. ${invoice.auctionId}: ${invoice.auctionTitle}`],
      ["Billing preference", invoice.billingPreference],
    ]);
    write.billTo(invoice);
    write.subheading("Charges");
    write.table([
      [`${LINE_DESCRIPTION}, auction No. ${invoice.auctionId}`, formatCents(invoice.feeCents)],
      [`GST ${GST_RATE_PERCENT}%`, formatCents(invoice.gstCents)],
      ["Total (CAD)", formatCents(invoice.totalCents)],
    ]);
    write.subheading("Payment terms");
    write.paragraph(issuer.paymentTerms);
  });
}

export function creditNotePdf(note: CreditNoteDocument, issuer: InvoiceIssuer): Promise<Buffer> {
  return render(`Credit note ${note.number}`, note.issuedAt, (write) => {
    write.heading(`Credit note ${note.number}`);
    write.issuer(issuer);
    write.facts([
      ["Credit note number", note.number],
      ["Credit note date", utcDay(note.issuedAt)],
      ["Credits invoice", `${note.invoice.number} of ${utcDay(note.invoice.issuedAt)}`],
      ["Auction", `No. ${note.invoice.auctionId}: ${note.invoice.auctionTitle}`],
    ]);
    write.billTo(note.invoice);
    write.subheading("Reason");
    write.paragraph(note.reason);
    write.subheading("Credited");
    write.table([
      [
        `Credit of the ${LINE_DESCRIPTION.toLowerCase()}, invoice ${note.invoice.number}`,
        formatCents(note.amountCents),
      ],
      [`GST ${GST_RATE_PERCENT}%`, formatCents(note.gstCents)],
      ["Total credited (CAD)", formatCents(note.totalCents)],
    ]);
    write.paragraph(`This credit note reduces invoice ${note.invoice.number} by ${formatCents(note.totalCents)}.`);
  });
}

type Writer = ReturnType<typeof writer>;

function writer(doc: PDFKit.PDFDocument, root: PDFKit.PDFStructureElement) {
  const text = (type: string, value: string, font = REGULAR, size = 10, gap = 4) => {
    doc.font(font).fontSize(size).text(value, { structParent: root, structType: type });
    doc.moveDown(gap / size);
  };
  return {
    heading: (value: string) => text("H1", value, BOLD, 20, 10),
    subheading: (value: string) => text("H2", value, BOLD, 12, 4),
    paragraph: (value: string) => text("P", value),
    issuer(issuer: InvoiceIssuer) {
      text("P", [issuer.name, ...issuer.addressLines].join("\n"));
      text("P", `GST registration number: ${issuer.gstNumber}`, REGULAR, 10, 10);
    },
    facts(rows: [string, string][]) {
      text("P", rows.map(([label, value]) => `${label}: ${value}`).join("\n"), REGULAR, 10, 10);
    },
    billTo(party: { billToName: string; billToContact: string | null; billToAddress: string }) {
      text("H2", "Bill to", BOLD, 12, 4);
      const lines = [
        party.billToName,
        ...(party.billToContact ? [`Attention: ${party.billToContact}`] : []),
        ...party.billToAddress.split("\n"),
      ];
      text("P", lines.join("\n"), REGULAR, 10, 10);
    },
    table(rows: [string, string][]) {
      doc.font(REGULAR).fontSize(10);
      // pdfkit tags the table (Table, TR, TH with its scope, TD) under structParent; @types/pdfkit
      // knows neither structParent nor a header cell's scope yet.
      const options = {
        structParent: root,
        columnStyles: ["*", 120],
        data: [
          [
            { text: "Description", type: "TH", scope: "column" },
            { text: "Amount", type: "TH", scope: "column", align: { x: "right" } },
          ],
          ...rows.map(([description, amount]) => [
            { text: description, type: "TH", scope: "row" },
            { text: amount, align: { x: "right" } },
          ]),
        ],
      };
      doc.table(options as unknown as PDFKit.Mixins.TableOptionsWithData);
      doc.moveDown(1);
    },
  };
}

function render(title: string, createdAt: Date, content: (write: Writer) => void): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "LETTER",
    margin: 54,
    tagged: true,
    // PDF/UA-1 (pdfuaid:part 1 in the XMP metadata, which also carries dc:title); @types/pdfkit
    // knows only the PDF/A subsets, and no font at all (null: not even the standard Helvetica is loaded).
    subset: "PDF/UA" as PDFKit.Mixins.PDFSubsets,
    font: null as unknown as string,
    pdfVersion: "1.7",
    lang: "en-CA",
    displayTitle: true,
    info: { Title: title, Author: "Upstream Marketplace", CreationDate: createdAt, ModDate: createdAt },
  });
  doc.registerFont(REGULAR, FONTS.regular);
  doc.registerFont(BOLD, FONTS.bold);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const root = doc.struct("Document");
  doc.addStructure(root);
  content(writer(doc, root));
  root.end();
  doc.end();
  return done;
}
