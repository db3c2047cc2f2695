import { createContext } from "react-router";
import type { RoleCode } from "~/shared/roles";

export type CurrentUser = {
  id: number;
  email: string;
  role: RoleCode;
  firstName: string | null;
  lastName: string | null;
  organizationId: number | null;
  organizationName: string | null;
  /** Invites and removes the organization's users. */
  isOrganizationAdmin: boolean;
  /** IANA time zone chosen at account setup; times are shown in it (null: America/Edmonton). */
  timezone: string | null;
  /** Live auction pages announce changes to screen readers (issue 32); the user may turn it off. */
  liveAnnouncements: boolean;
};

/** Set by the root middleware for every request: the signed-in user, or null. */
export const currentUserContext = createContext<CurrentUser | null>(null);
