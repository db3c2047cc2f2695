/** 2026-11-25: the UTC day of an instant, as invoices print and list dates. */
export const utcDay = (date: Date | string) => new Date(date).toISOString().slice(0, 10);
