import type { CodeName } from "./types";

/**
 * Canada's 13 provinces and territories, sorted by name. The codes are the
 * ones the spec uses: NW (not NT) for the Northwest Territories and YU (not
 * YT) for Yukon are intentional.
 */
export const canadianProvinces: CodeName[] = [
  { code: "AB", name: "Alberta" },
  { code: "BC", name: "British Columbia" },
  { code: "MB", name: "Manitoba" },
  { code: "NB", name: "New Brunswick" },
  { code: "NL", name: "Newfoundland and Labrador" },
  { code: "NW", name: "Northwest Territories" },
  { code: "NS", name: "Nova Scotia" },
  { code: "NU", name: "Nunavut" },
  { code: "ON", name: "Ontario" },
  { code: "PE", name: "Prince Edward Island" },
  { code: "QC", name: "Quebec" },
  { code: "SK", name: "Saskatchewan" },
  { code: "YU", name: "Yukon" },
];
