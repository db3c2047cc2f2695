import PDFDocument from "pdfkit";
import { formatCents } from "~/payments/fees";
import { GST_RATE_PERCENT } from "./invoice-amounts";
import { utcDay } from "./invoice-dates";
import type { InvoiceIssuer } from "./invoice-issuer";

// The PDFs of invoices and credit notes (issue 19), made once at issue and kept: pdfkit writes a
// tagged PDF (a structure tree of headings, paragraphs and a table with header cells, the document's
// language, its title shown in the viewer's title bar) with real text a screen reader and a search
// can read. The same input makes the same bytes (the creation date is the issue date).

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
  const text = (type: string, value: string, font = "Helvetica", size = 10, gap = 4) => {
    doc.font(font).fontSize(size).text(value, { structParent: root, structType: type });
    doc.moveDown(gap / size);
  };
  return {
    heading: (value: string) => text("H1", value, "Helvetica-Bold", 20, 10),
    subheading: (value: string) => text("H2", value, "Helvetica-Bold", 12, 4),
    paragraph: (value: string) => text("P", value),
    issuer(issuer: InvoiceIssuer) {
      text("P", [issuer.name, ...issuer.addressLines].join("\n"));
      text("P", `GST registration number: ${issuer.gstNumber}`, "Helvetica", 10, 10);
    },
    facts(rows: [string, string][]) {
      text("P", rows.map(([label, value]) => `${label}: ${value}`).join("\n"), "Helvetica", 10, 10);
    },
    billTo(party: { billToName: string; billToContact: string | null; billToAddress: string }) {
      text("H2", "Bill to", "Helvetica-Bold", 12, 4);
      const lines = [
        party.billToName,
        ...(party.billToContact ? [`Attention: ${party.billToContact}`] : []),
        ...party.billToAddress.split("\n"),
      ];
      text("P", lines.join("\n"), "Helvetica", 10, 10);
    },
    table(rows: [string, string][]) {
      doc.font("Helvetica").fontSize(10);
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
    pdfVersion: "1.7",
    lang: "en-CA",
    displayTitle: true,
    info: { Title: title, Author: "Upstream Marketplace", CreationDate: createdAt, ModDate: createdAt },
  });
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
