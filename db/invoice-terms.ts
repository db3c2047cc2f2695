// The words of the invoice tables (issue 19), shared by the schema's checks and the app.

/** A buyer's billing preference (spec section 3), as chosen at registration. */
export const BILLING_PREFERENCES = ["Email Invoice", "Mail Invoice", "Open Invoice", "Cortex"] as const;
export type BillingPreference = (typeof BILLING_PREFERENCES)[number];

/** The e-invoicing networks: their invoices leave in an export file staff upload. */
export const EXPORT_NETWORKS = ["Open Invoice", "Cortex"] as const;
export type ExportNetwork = (typeof EXPORT_NETWORKS)[number];

/**
 * Where an invoice is on its way to the buyer, by preference: Email Invoice to_email → emailed;
 * Mail Invoice to_mail → mailed; Open Invoice and Cortex to_export → exported.
 */
export const DELIVERY_STATES = ["to_email", "emailed", "to_mail", "mailed", "to_export", "exported"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** The state an invoice starts in, by preference. */
export const FIRST_DELIVERY_STATE: Record<BillingPreference, DeliveryState> = {
  "Email Invoice": "to_email",
  "Mail Invoice": "to_mail",
  "Open Invoice": "to_export",
  Cortex: "to_export",
};
