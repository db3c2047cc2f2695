import {
  type BuyerSideCode,
  ORGANIZATION_TYPES,
  type OrganizationTypeCode,
  type OrganizationTypeSlug,
  Role,
} from "~/shared/roles";

// User-facing texts of the registration steps (spec section 8), shared by pages, actions and the API.
export const SEND_CODE_FAILED = "Failed to send access code. Please check your mobile number and try again.";
export const INVALID_ACCESS_CODE = "Invalid access code. Please check the code and try again.";
export const INVALID_ACCESS_TOKEN = "Invalid access token.";

export function organizationTypeCodeOf(slug: string | null | undefined): OrganizationTypeCode | undefined {
  return ORGANIZATION_TYPES.find((type) => type.slug === slug)?.code;
}

export function organizationTypeSlugOf(code: number): OrganizationTypeSlug | undefined {
  return ORGANIZATION_TYPES.find((type) => type.code === code)?.slug;
}

/** Where step 4 leads: signup/buyer-registration/{token} and so on. */
export function registrationFormPath(code: number, accessToken: string): string {
  return `/signup/${organizationTypeSlugOf(code) ?? "buyer"}-registration/${encodeURIComponent(accessToken)}`;
}

/** Where a submitted buyer or consultant form leads (spec: both to buyer's; the issue lists a page for each). */
export function registrationCompletePath(code: BuyerSideCode): string {
  return `/signup/${code === Role.Consultant ? "consultant" : "buyer"}-registration-complete`;
}

export const REGISTRATION_COMPLETE =
  "Your registration has been submitted. Once your application has been reviewed you will be notified by email.";
