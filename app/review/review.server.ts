import { and, asc, count, desc, eq } from "drizzle-orm";
import { accountLinkUrl, issueAccountToken } from "~/accounts/account-tokens.server";
import { queueMessage } from "~/messaging/delivery/outbox.server";
import { AwaitedKind } from "~/messaging/message-kinds";
import { startSellerSubscription } from "~/payments/subscriptions/seller-subscription.server";
import { CHANGE_LINK_DAYS, changeLinkUrl, issueChangeToken } from "~/registration/changes/registration-changes.server";
import type { AppServices } from "~/server/app-context";
import { type OrganizationTypeCode, Role } from "~/shared/roles";
import { counted } from "~/shared/words";
import type { Database, Transaction } from "~db/database.server";
import {
  organizations,
  registrationContacts,
  registrationDecisions,
  registrations,
  sellerSubscriptions,
  users,
} from "~db/schema";
import type { RegistrationStatus } from "./review-terms";

// Staff review of submitted registrations (issue 8): the queue, one registration with everything the
// applicant sent, and the decisions. A decision happens once: the status changes only from
// 'submitted', in the same transaction as what the decision creates, and the audit row is unique
// per registration, so of two staff deciding at the same moment exactly one wins.

export type QueueFilter = { type?: OrganizationTypeCode; status?: RegistrationStatus };

/** The staff queue shows this many registrations a page. */
export const QUEUE_PAGE_SIZE = 50;

/**
 * One page of the queue (from 1), newest first, with the number in each status (for the chosen type)
 * for the filter, which also tells how many pages there are.
 */
export async function listRegistrations(db: Database, filter: QueueFilter, page = 1) {
  const conditions = [
    filter.type ? eq(registrations.organizationType, filter.type) : undefined,
    filter.status ? eq(registrations.status, filter.status) : undefined,
  ].filter((condition) => condition !== undefined);
  const rowsQuery = db
    .select({
      id: registrations.id,
      name: registrations.name,
      organizationType: registrations.organizationType,
      status: registrations.status,
      submittedAt: registrations.submittedAt,
      email: registrations.email,
      subscriptionStatus: sellerSubscriptions.status,
      graceEndsAt: sellerSubscriptions.graceEndsAt,
    })
    .from(registrations)
    .leftJoin(sellerSubscriptions, eq(sellerSubscriptions.organizationId, registrations.organizationId))
    .where(and(...conditions))
    .orderBy(desc(registrations.submittedAt), desc(registrations.id))
    .limit(QUEUE_PAGE_SIZE)
    .offset((page - 1) * QUEUE_PAGE_SIZE);
  const [rows, counts] = await Promise.all([
    rowsQuery,
    db
      .select({ status: registrations.status, total: count() })
      .from(registrations)
      .where(filter.type ? eq(registrations.organizationType, filter.type) : undefined)
      .groupBy(registrations.status),
  ]);
  return { rows, counts: Object.fromEntries(counts.map((row) => [row.status, row.total])) as Record<string, number> };
}

export type DecisionOutcome =
  | { kind: "decided"; decision: "approved" | "rejected" | "changes_requested" }
  | { kind: "not-found" }
  | { kind: "already-decided"; status: string }
  | { kind: "email-in-use"; email: string };

/** The contact the account is made for: primary (buyer, consultant) or sales (seller). */
const ACCOUNT_CONTACT_ROLE = { [Role.Buyer]: "primary", [Role.Seller]: "sales", [Role.Consultant]: "primary" } as const;

/** The registration and the contact its account is (or would be) made for. */
async function registrationWithContact(tx: Transaction, id: number) {
  const [registration] = await tx.select().from(registrations).where(eq(registrations.id, id));
  if (!registration) return undefined;
  const role = ACCOUNT_CONTACT_ROLE[registration.organizationType as OrganizationTypeCode];
  const [contact] = await tx
    .select()
    .from(registrationContacts)
    .where(and(eq(registrationContacts.registrationId, id), eq(registrationContacts.role, role)));
  if (!contact) throw new Error(`registration ${id} has no ${role} contact`);
  return { registration, contact };
}

/**
 * Marks the registration decided and records who, when, what and why, if nobody has decided yet.
 * The update only matches a 'submitted' row: a second member of staff's update waits for the first
 * transaction and then matches nothing.
 */
async function takeDecision(
  tx: Transaction,
  id: number,
  staffUserId: number,
  decision: "approved" | "rejected" | "changes_requested",
  reason: string | null,
): Promise<boolean> {
  const [decided] = await tx
    .update(registrations)
    .set({ status: decision, reviewedAt: new Date(), reviewedByUserId: staffUserId })
    .where(and(eq(registrations.id, id), eq(registrations.status, "submitted")))
    .returning({ id: registrations.id });
  if (!decided) return false;
  await tx.insert(registrationDecisions).values({ registrationId: id, staffUserId, decision, reason });
  return true;
}

/**
 * Queues the applicant's e-mail in the decision's transaction: one with an account-setup link is a
 * message its reader waits for (retried within seconds), any other a notice.
 */
const tellApplicant = (
  tx: Transaction,
  services: AppServices,
  to: string,
  subject: string,
  lines: string[],
  kind: string = "decision",
) => queueMessage(tx, services.messaging, { channel: "email", kind, to, subject, text: lines.join("\n") });

/**
 * Approve: in one transaction the decision, the organization, its first user (from the primary or
 * sales contact), an account-setup link (7 days) and its e-mail.
 */
export async function approveRegistration(
  services: AppServices,
  id: number,
  staffUserId: number,
): Promise<DecisionOutcome> {
  const outcome = await services.db.transaction(async (tx) => {
    const found = await registrationWithContact(tx, id);
    if (!found) return { kind: "not-found" as const };
    const { registration, contact } = found;
    if (registration.status !== "submitted") return { kind: "already-decided" as const, status: registration.status };
    const email = contact.email.toLowerCase();
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (existing) return { kind: "email-in-use" as const, email };
    if (!(await takeDecision(tx, id, staffUserId, "approved", null))) {
      return { kind: "already-decided" as const, status: "approved" };
    }
    const [organization] = await tx
      .insert(organizations)
      .values({ name: registration.name, organizationType: registration.organizationType })
      .returning({ id: organizations.id });
    if (!organization) throw new Error("no organization row");
    const [user] = await tx
      .insert(users)
      .values({
        email,
        role: registration.organizationType,
        organizationId: organization.id,
        firstName: contact.firstName,
        lastName: contact.lastName,
        isOrganizationAdmin: true,
      })
      .returning({ id: users.id });
    if (!user) throw new Error("no user row");
    await tx.update(registrations).set({ organizationId: organization.id }).where(eq(registrations.id, id));
    const token = await issueAccountToken(tx, user.id, "account_setup");
    await tellApplicant(
      tx,
      services,
      email,
      "Your registration has been approved",
      [
        `Your registration of ${registration.name} has been approved.`,
        "",
        "To complete your registration please set your account password and timezone here (the link works for 7 days):",
        accountLinkUrl(services.env.APP_URL, "account_setup", token),
      ],
      AwaitedKind.AccountSetup,
    );
    return {
      kind: "approved" as const,
      organizationId: organization.id,
      organizationType: registration.organizationType,
    };
  });
  if (outcome.kind !== "approved") return outcome;
  if (outcome.organizationType === Role.Seller) await startSellerSubscription(services, outcome.organizationId, id);
  return { kind: "decided", decision: "approved" };
}

/** Reject with a reason, which the applicant is e-mailed. */
export async function rejectRegistration(
  services: AppServices,
  id: number,
  staffUserId: number,
  reason: string,
): Promise<DecisionOutcome> {
  const outcome = await services.db.transaction(async (tx) => {
    const found = await registrationWithContact(tx, id);
    if (!found) return { kind: "not-found" as const };
    if (found.registration.status !== "submitted") {
      return { kind: "already-decided" as const, status: found.registration.status };
    }
    if (!(await takeDecision(tx, id, staffUserId, "rejected", reason))) {
      return { kind: "already-decided" as const, status: "rejected" };
    }
    await tellApplicant(tx, services, found.contact.email.toLowerCase(), "Your registration was not approved", [
      `We have reviewed the registration of ${found.registration.name} and could not approve it.`,
      "",
      `Reason: ${reason}`,
      "",
      "If you have questions, please reply to this e-mail.",
    ]);
    return { kind: "rejected" as const };
  });
  if (outcome.kind !== "rejected") return outcome;
  return { kind: "decided", decision: "rejected" };
}

export type ResendOutcome = { kind: "sent"; email: string } | { kind: "not-approved" } | { kind: "already-set-up" };

/** A new account-setup link (7 days) for the approved organization's first user, until they have used one. */
export async function resendSetupLink(services: AppServices, id: number): Promise<ResendOutcome> {
  const { db } = services;
  const [registration] = await db.select().from(registrations).where(eq(registrations.id, id));
  if (registration?.status !== "approved" || !registration.organizationId) return { kind: "not-approved" };
  const organizationId = registration.organizationId;
  // The first link stops working (issueAccountToken). The user's row stays locked from the check to
  // the new link, so a password set meanwhile is seen and no link outlives it.
  const issued = await db.transaction(async (tx) => {
    const [user] = await tx
      .select()
      .from(users)
      .where(eq(users.organizationId, organizationId))
      .orderBy(asc(users.id))
      .limit(1)
      .for("update");
    if (!user || user.passwordHash) return undefined;
    const token = await issueAccountToken(tx, user.id, "account_setup");
    await tellApplicant(
      tx,
      services,
      user.email,
      "Set up your account",
      [
        `Here is a new link to set up the account of ${registration.name} (it works for 7 days):`,
        accountLinkUrl(services.env.APP_URL, "account_setup", token),
      ],
      AwaitedKind.AccountSetup,
    );
    return { email: user.email };
  });
  if (!issued) return { kind: "already-set-up" };
  return { kind: "sent", email: issued.email };
}

/**
 * Ask for changes with a message: the registration waits for the applicant, who is e-mailed the
 * message and a link (14 days) that reopens their form pre-filled; their resubmission puts it back
 * in the queue. Like the other decisions it is taken once per submission.
 */
export async function requestChanges(
  services: AppServices,
  id: number,
  staffUserId: number,
  message: string,
): Promise<DecisionOutcome> {
  const outcome = await services.db.transaction(async (tx) => {
    const found = await registrationWithContact(tx, id);
    if (!found) return { kind: "not-found" as const };
    if (found.registration.status !== "submitted") {
      return { kind: "already-decided" as const, status: found.registration.status };
    }
    if (!(await takeDecision(tx, id, staffUserId, "changes_requested", message))) {
      return { kind: "already-decided" as const, status: "changes_requested" };
    }
    const token = await issueChangeToken(tx, id);
    await tellApplicant(tx, services, found.contact.email.toLowerCase(), "Please update your registration", [
      `We have reviewed the registration of ${found.registration.name} and need some changes before we can approve it:`,
      "",
      message,
      "",
      `Please update your registration here (the link works for ${counted(CHANGE_LINK_DAYS, "day", "days")}); what you sent before is filled in:`,
      changeLinkUrl(services.env.APP_URL, token),
    ]);
    return { kind: "asked" as const };
  });
  if (outcome.kind !== "asked") return outcome;
  return { kind: "decided", decision: "changes_requested" };
}
