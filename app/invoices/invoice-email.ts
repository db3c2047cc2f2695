import { utcDay } from "~/shared/dates";
import { formatCents } from "~/shared/money";
import type { InvoiceIssuer } from "./invoice-issuer";
import type { InvoiceDocument } from "./invoice-pdf.server";

// The e-mail of an Email Invoice invoice (issue 19): to the accounting contact captured on the
// invoice, the PDF attached. Built here, sent by the durable message queue (the award transaction
// marks where it is queued); nothing here sends anything.

/** What the e-mail says: the invoice's own fields, as its PDF has them. */
export type InvoiceEmailInput = Pick<
  InvoiceDocument,
  "number" | "issuedAt" | "auctionId" | "auctionTitle" | "billToName" | "billToContact" | "billToEmail" | "totalCents"
>;

export type InvoiceEmail = {
  to: string;
  subject: string;
  text: string;
  attachments: { name: string; contentType: "application/pdf"; contentBase64: string }[];
};

export function invoiceEmail(
  invoice: InvoiceEmailInput,
  pdf: Uint8Array,
  options: { issuer?: Pick<InvoiceIssuer, "name" | "paymentTerms">; appUrl?: string } = {},
): InvoiceEmail {
  const { issuer, appUrl } = options;
  if (!invoice.billToEmail) throw new Error(`invoice ${invoice.number} has no e-mail address to send it to`);
  const from = issuer?.name ?? "Upstream Marketplace";
  return {
    to: invoice.billToEmail,
    subject: `Invoice ${invoice.number} from ${from}: ${formatCents(invoice.totalCents)}`,
    text: [
      `Hello${invoice.billToContact ? ` ${invoice.billToContact}` : ""},`,
      "",
      `Attached is invoice ${invoice.number} of ${utcDay(invoice.issuedAt)} for ${invoice.billToName}: the per-auction fee for auction No. ${invoice.auctionId}, "${invoice.auctionTitle}".`,
      `Total due, GST included: ${formatCents(invoice.totalCents)}.`,
      ...(issuer ? ["", issuer.paymentTerms] : []),
      "",
      ...(appUrl ? [`Your organization's invoices are also at ${appUrl.replace(/\/+$/, "")}/account/invoices`] : []),
    ].join("\n"),
    attachments: [
      {
        name: `${invoice.number}.pdf`,
        contentType: "application/pdf",
        contentBase64: Buffer.from(pdf).toString("base64"),
      },
    ],
  };
}
