// Words and codes of the review pages, shared by the pages and the server module.

export const REGISTRATION_TYPES = [
  { code: 2, label: "Buyer" },
  { code: 3, label: "Seller" },
  { code: 4, label: "Consultant" },
] as const;
export type RegistrationType = (typeof REGISTRATION_TYPES)[number]["code"];

export const REGISTRATION_STATUSES = [
  { value: "submitted", label: "Awaiting review" },
  { value: "changes_requested", label: "Changes requested" },
  { value: "approved", label: "Approved" },
  { value: "rejected", label: "Rejected" },
] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number]["value"];

export const typeLabelOf = (code: number) => REGISTRATION_TYPES.find((type) => type.code === code)?.label ?? "Unknown";
export const statusLabelOf = (status: string) =>
  REGISTRATION_STATUSES.find((entry) => entry.value === status)?.label ?? status;

/** UTC, as stored: "2026-11-23 14:05 UTC". */
export const utcMinute = (iso: string) => `${iso.replace("T", " ").slice(0, 16)} UTC`;
