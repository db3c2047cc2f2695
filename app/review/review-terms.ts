import { REGISTRATION_TYPES } from "~/shared/roles";

// Words and codes of the review pages, shared by the pages and the server module.

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
