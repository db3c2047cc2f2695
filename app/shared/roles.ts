// The roles, by name. Their codes are what is stored (users.role; organizations', registration
// requests' and registrations' organization_type) and what /api answers: 1 staff, 2 buyer, 3 seller
// (service company), 4 consultant (auctioneer). Code compares roles by these names, never by number
// (roles.test.ts fails on a number).

export const Role = { Staff: 1, Buyer: 2, Seller: 3, Consultant: 4 } as const;
export type RoleCode = (typeof Role)[keyof typeof Role];

/** The roles an organization (and its registration) has: every role but staff. */
export type OrganizationTypeCode = Exclude<RoleCode, typeof Role.Staff>;
/** The organizations that run auctions, and register with the buyer's form. */
export type BuyerSideCode = typeof Role.Buyer | typeof Role.Consultant;

/**
 * Each role once: its name, the word the routes use for it (/signup?type=seller,
 * /signup/seller-registration/…) and, for an organization's role, how the sign-up form names it.
 */
const ROLE_LIST = [
  { code: Role.Staff, name: "Staff", slug: "staff", organizationLabel: null },
  { code: Role.Buyer, name: "Buyer", slug: "buyer", organizationLabel: "Buyer" },
  { code: Role.Seller, name: "Seller", slug: "seller", organizationLabel: "Seller (Service Company)" },
  { code: Role.Consultant, name: "Consultant", slug: "consultant", organizationLabel: "Consultant (Auctioneer)" },
] as const;

type RoleEntry = (typeof ROLE_LIST)[number];
type OrganizationRole = Extract<RoleEntry, { organizationLabel: string }>;

/** A role's name by its code ("Seller"). */
export const ROLE_NAMES = Object.fromEntries(ROLE_LIST.map((role) => [role.code, role.name])) as {
  readonly [R in RoleEntry as R["code"]]: R["name"];
};

const organizationRoles = ROLE_LIST.filter((role): role is OrganizationRole => role.organizationLabel !== null);

/** Organization types (spec section 9): the sign-up form's choices and the words the routes use for them. */
export const ORGANIZATION_TYPES = organizationRoles.map(({ code, slug, organizationLabel }) => ({
  code,
  slug,
  label: organizationLabel,
}));
export type OrganizationTypeSlug = OrganizationRole["slug"];

/** The types staff filter registrations by. */
export const REGISTRATION_TYPES = organizationRoles.map(({ code, name }) => ({ code, label: name }));

/** Every role's code, and every organization's, as the database's check constraints list them. */
export const ROLE_CODES = ROLE_LIST.map((role) => role.code);
export const ORGANIZATION_TYPE_CODES = ORGANIZATION_TYPES.map((type) => type.code);

/** Whether this stored code is an organization's role. */
export const isOrganizationTypeCode = (code: number): code is OrganizationTypeCode =>
  ORGANIZATION_TYPES.some((type) => type.code === code);
