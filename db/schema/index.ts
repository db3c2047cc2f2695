// The database schema, one file per feature area; importers keep using `~db/schema` (or `./schema`).
// The files import one another in one direction only: reference data and accounts first, auctions
// before what hangs off them (evaluation, notifications, invoices).

export * from "./accounts";
export * from "./auctions";
export * from "./catalogue";
export * from "./evaluation";
export * from "./invoices";
export * from "./machines";
export * from "./messaging";
export * from "./notifications";
export * from "./payments";
export * from "./reference-data";
export * from "./registration";
export * from "./reminders";
export * from "./review";
export * from "./seller-registration";
