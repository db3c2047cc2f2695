import type { Environment } from "~/platform/env.server";
import { counted } from "~/shared/words";

// Who issues the buyers' invoices and on what terms: one place, each line overridable by the
// environment (INVOICE_ISSUER_NAME, INVOICE_ISSUER_ADDRESS, GST_REGISTRATION_NUMBER). Production
// refuses to start without GST_REGISTRATION_NUMBER (app/platform/env.server.ts); elsewhere the
// invoices say that it is not set.

export type InvoiceIssuer = {
  name: string;
  addressLines: string[];
  gstNumber: string;
  paymentTerms: string;
};

export const DEFAULT_ISSUER_NAME = "Upstream Marketplace Ltd.";
export const DEFAULT_ISSUER_ADDRESS = "Suite 400, 555 4 Ave SW; Calgary AB  T2P 3E7; Canada";
export const GST_NUMBER_NOT_SET = "Not set (not a production copy)";
export const PAYMENT_DAYS = 30;
export const PAYMENT_TERMS = `Net ${counted(PAYMENT_DAYS, "day", "days")}: payment is due within ${counted(PAYMENT_DAYS, "day", "days")} of the invoice date. Please quote the invoice number with your payment.`;

/** The environment's part in an invoice: the issuer's lines. */
export type InvoiceEnv = Pick<
  Environment,
  "INVOICE_ISSUER_NAME" | "INVOICE_ISSUER_ADDRESS" | "GST_REGISTRATION_NUMBER"
>;

export function invoiceIssuer(env: InvoiceEnv): InvoiceIssuer {
  return {
    name: env.INVOICE_ISSUER_NAME ?? DEFAULT_ISSUER_NAME,
    addressLines: (env.INVOICE_ISSUER_ADDRESS ?? DEFAULT_ISSUER_ADDRESS)
      .split(";")
      .map((line) => line.trim())
      .filter(Boolean),
    gstNumber: env.GST_REGISTRATION_NUMBER ?? GST_NUMBER_NOT_SET,
    paymentTerms: PAYMENT_TERMS,
  };
}
