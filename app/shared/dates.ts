// Instants as the app writes them in UTC, whatever the reader's zone: pages for staff, e-mails,
// invoices and file names. A Date, or the ISO text a loader sends for one.

/** "2026-11-25": the UTC day of an instant, as invoices print and list dates. */
export const utcDay = (date: Date | string) => new Date(date).toISOString().slice(0, 10);

/** "2026-11-23 14:05 UTC": an instant to the minute, as stored. */
export const utcMinute = (date: Date | string) =>
  `${(typeof date === "string" ? date : date.toISOString()).replace("T", " ").slice(0, 16)} UTC`;
