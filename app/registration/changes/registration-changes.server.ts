import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { data, redirect } from "react-router";
import type { AppServices } from "~/server/app-context";
import { Role } from "~/shared/roles";
import { createRandomToken, hashToken } from "~/shared/secret-tokens.server";
import type { Database, Transaction } from "~db/database.server";
import { registrationChangeTokens, registrationDecisions, registrations } from "~db/schema";
import { notifyStaff } from "../form/registration-store.server";
import { registrationCompletePath } from "../registration-texts";
import { SELLER_COMPLETE_PATH } from "../seller-form/seller-registration.server";
import { loadEditForm, parseEditSubmission } from "./registration-edit.server";
import { replaceRegistrationData } from "./registration-update.server";
import { readStoredRegistration } from "./stored-registration.server";

// Staff asked for changes (issue 8): the applicant follows the e-mailed link to
// /signup/registration-changes/{token}, sees staff's message and their form pre-filled, and
// resubmits it. The link is random, stored as a hash, expires, and is spent by the resubmission.

export const CHANGE_LINK_DAYS = 14;
const CHANGE_LINK_PATH = "/signup/registration-changes";

export const changeLinkUrl = (appUrl: string, token: string) =>
  `${appUrl.replace(/\/+$/, "")}${CHANGE_LINK_PATH}/${token}`;

/** A new link for the registration; an earlier unspent one stops working. Returns the raw token. */
export async function issueChangeToken(tx: Transaction, registrationId: number, now = new Date()): Promise<string> {
  await tx
    .update(registrationChangeTokens)
    .set({ usedAt: now })
    .where(and(eq(registrationChangeTokens.registrationId, registrationId), isNull(registrationChangeTokens.usedAt)));
  const token = createRandomToken();
  await tx.insert(registrationChangeTokens).values({
    registrationId,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + CHANGE_LINK_DAYS * 24 * 60 * 60 * 1000),
  });
  return token;
}

const usableToken = (token: string, now: Date) =>
  and(
    eq(registrationChangeTokens.tokenHash, hashToken(token)),
    isNull(registrationChangeTokens.usedAt),
    gt(registrationChangeTokens.expiresAt, now),
  );

/** The registration awaiting changes that the link opens, with staff's latest message; or undefined. */
async function findChangeRequest(db: Database, token: string) {
  if (!/^[A-Za-z0-9_-]{20,200}$/.test(token)) return undefined;
  const [found] = await db
    .select({ registrationId: registrationChangeTokens.registrationId })
    .from(registrationChangeTokens)
    .innerJoin(registrations, eq(registrations.id, registrationChangeTokens.registrationId))
    .where(and(usableToken(token, new Date()), eq(registrations.status, "changes_requested")));
  if (!found) return undefined;
  const [request] = await db
    .select({ message: registrationDecisions.reason })
    .from(registrationDecisions)
    .where(
      and(
        eq(registrationDecisions.registrationId, found.registrationId),
        eq(registrationDecisions.decision, "changes_requested"),
      ),
    )
    .orderBy(desc(registrationDecisions.createdAt), desc(registrationDecisions.id))
    .limit(1);
  const stored = await readStoredRegistration(db, found.registrationId);
  return stored ? { stored, message: request?.message ?? "" } : undefined;
}

const invalidLink = () => data({ tokenValid: false as const }, { status: 404 });

export async function loadChangesForm(services: AppServices, token: string) {
  const request = await findChangeRequest(services.db, token);
  if (!request) return invalidLink();
  const form = await loadEditForm(services, request.stored, { keepPastDates: false });
  return { tokenValid: true as const, message: request.message, ...form };
}

/**
 * The resubmission: checked like the first submission, then in one transaction the link is spent,
 * the registration goes back to the queue with its data replaced (the card stays), and the history
 * records it. Staff are told.
 */
export async function submitChangesForm(request: Request, services: AppServices, token: string) {
  const found = await findChangeRequest(services.db, token);
  if (!found) return invalidLink();
  const { stored } = found;
  const parsed = await parseEditSubmission(request, services, stored, { keepPastDates: false, keepFeedback: false });
  if (parsed.kind === "answer") return data({ tokenValid: true as const, ...parsed.answer }, { status: parsed.status });

  const now = new Date();
  const resubmitted = await services.db.transaction(async (tx) => {
    const [spent] = await tx
      .update(registrationChangeTokens)
      .set({ usedAt: now })
      .where(and(usableToken(token, now), eq(registrationChangeTokens.registrationId, stored.registrationId)))
      .returning({ id: registrationChangeTokens.id });
    if (!spent) return false;
    const [reopened] = await tx
      .update(registrations)
      .set({ status: "submitted", submittedAt: now })
      .where(and(eq(registrations.id, stored.registrationId), eq(registrations.status, "changes_requested")))
      .returning({ id: registrations.id });
    if (!reopened) return false;
    await replaceRegistrationData(tx, stored.registrationId, parsed.update, parsed.certificationIds);
    await tx
      .insert(registrationDecisions)
      .values({ registrationId: stored.registrationId, decision: "resubmitted", createdAt: now });
    await notifyStaff(tx, services, stored.registrationId, stored.organizationType, parsed.update.data.name);
    return true;
  });
  // A second submission of the same page (double click, another tab) finds the link spent.
  if (!resubmitted) return invalidLink();
  return redirect(
    stored.organizationType === Role.Seller ? SELLER_COMPLETE_PATH : registrationCompletePath(stored.organizationType),
  );
}
