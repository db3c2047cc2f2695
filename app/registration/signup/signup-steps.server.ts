import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { and, count, desc, eq, gt, isNotNull, isNull, min, sql } from "drizzle-orm";
import { deliverNow, queueMessage } from "~/messaging/delivery/outbox.server";
import { AwaitedKind } from "~/messaging/message-kinds";
import { lastUpdated as privacyPolicyVersion } from "~/public-pages/content/privacy-policy";
import { lastUpdated as termsVersion } from "~/public-pages/content/terms-and-conditions";
import type { AppServices } from "~/server/app-context";
import type { OrganizationTypeCode } from "~/shared/roles";
import { createRandomToken, hashToken } from "~/shared/secret-tokens.server";
import { describeWait } from "~/shared/words";
import type { Database } from "~db/database.server";
import { registrationAccessTokens, registrationCodeSends, registrationRequests } from "~db/schema";

export const CODE_LIFETIME_MS = 10 * 60 * 1000;
export const CODE_ATTEMPTS = 5;
/** Long enough to gather a seller's insurance and safety papers in one sitting. */
export const ACCESS_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** SMS cost money and can be abused to pester a number: one a minute and 5 an hour per number. */
export const SEND_LIMITS = { minIntervalSeconds: 60, perNumberPerHour: 5, perClientPerHour: 30 };

export const LEGAL_VERSIONS = { privacyPolicy: privacyPolicyVersion, terms: termsVersion };

export type SendOutcome =
  | { kind: "sent"; mobileNumber: string }
  | { kind: "throttled"; retryAfterSeconds: number; message: string }
  | { kind: "failed" };

type Executor = Pick<Database, "select" | "insert" | "update" | "delete" | "execute">;

function createCode(): { code: string; salt: string; hash: string } {
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const salt = randomBytes(16).toString("hex");
  return { code, salt, hash: hashCode(salt, code) };
}

function hashCode(salt: string, code: string): string {
  return createHash("sha256").update(`${salt}:${code}`).digest("hex");
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The first key of the advisory locks that make one client's SMS requests take turns: negative, so
 * never a user id (the first key of the notifications' locks).
 */
const SMS_CLIENT_LOCK_CLASS = -17_001;

const secondsUntil = (time: Date, now: Date) => Math.max(1, Math.ceil((time.getTime() - now.getTime()) / 1000));

/**
 * Takes one SMS from the number's and the client's allowance, or says how long to wait. Run inside
 * a transaction: the advisory locks make concurrent requests for one number, and from one client,
 * take turns, so each counts the sends of those before it. The number's lock is always taken first
 * and a request holds one of each, so two requests never wait for each other in a circle.
 */
async function takeSendAllowance(
  tx: Executor,
  mobileNumber: string,
  clientAddress: string,
  now: Date,
): Promise<{ sendId: number } | { retryAfterSeconds: number; message: string }> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`registration-sms:${mobileNumber}`}))`);
  // The two-key form is a lock space of its own: a client's lock never collides with a number's.
  await tx.execute(sql`select pg_advisory_xact_lock(${SMS_CLIENT_LOCK_CLASS}, hashtext(${clientAddress}))`);
  const hourAgo = new Date(now.getTime() - 60 * 60 * 1000);
  const [byNumber] = await tx
    .select({ sends: count(), oldest: min(registrationCodeSends.sentAt) })
    .from(registrationCodeSends)
    .where(and(eq(registrationCodeSends.mobileNumber, mobileNumber), gt(registrationCodeSends.sentAt, hourAgo)));
  const [latest] = await tx
    .select({ sentAt: registrationCodeSends.sentAt })
    .from(registrationCodeSends)
    .where(eq(registrationCodeSends.mobileNumber, mobileNumber))
    .orderBy(desc(registrationCodeSends.sentAt))
    .limit(1);
  if (latest && now.getTime() - latest.sentAt.getTime() < SEND_LIMITS.minIntervalSeconds * 1000) {
    const retryAfterSeconds = secondsUntil(
      new Date(latest.sentAt.getTime() + SEND_LIMITS.minIntervalSeconds * 1000),
      now,
    );
    return {
      retryAfterSeconds,
      message: `A code was sent to this number less than a minute ago. Please wait ${describeWait(retryAfterSeconds)} before requesting another.`,
    };
  }
  if (byNumber && byNumber.sends >= SEND_LIMITS.perNumberPerHour && byNumber.oldest) {
    const retryAfterSeconds = secondsUntil(new Date(byNumber.oldest.getTime() + 60 * 60 * 1000), now);
    return {
      retryAfterSeconds,
      message: `Too many codes have been sent to this number. Please wait ${describeWait(retryAfterSeconds)} and try again.`,
    };
  }
  const [byClient] = await tx
    .select({ sends: count(), oldest: min(registrationCodeSends.sentAt) })
    .from(registrationCodeSends)
    .where(and(eq(registrationCodeSends.clientAddress, clientAddress), gt(registrationCodeSends.sentAt, hourAgo)));
  if (byClient && byClient.sends >= SEND_LIMITS.perClientPerHour && byClient.oldest) {
    const retryAfterSeconds = secondsUntil(new Date(byClient.oldest.getTime() + 60 * 60 * 1000), now);
    return {
      retryAfterSeconds,
      message: `Too many codes have been requested. Please wait ${describeWait(retryAfterSeconds)} and try again.`,
    };
  }
  const [send] = await tx
    .insert(registrationCodeSends)
    .values({ mobileNumber, clientAddress, sentAt: now })
    .returning({ id: registrationCodeSends.id });
  if (!send) throw new Error("no send row");
  return { sendId: send.id };
}

/** Queues the code's SMS in the transaction that records it; the request then makes the first attempt. */
function queueCode(tx: Executor, services: AppServices, mobileNumber: string, code: string) {
  return queueMessage(
    tx,
    services.messaging,
    {
      channel: "sms",
      kind: AwaitedKind.AccessCode,
      to: mobileNumber,
      text: `Your Upstream Marketplace verification code is ${code}. It expires in 10 minutes.`,
    },
    { firstAttemptInline: true },
  );
}

/**
 * The first attempt, after the commit: false only when the provider refused the message (a bad
 * number); a transient failure stays queued for a retry and counts as sent.
 */
async function deliverCode(services: AppServices, messageId: number): Promise<boolean> {
  const outcome = await deliverNow(services, messageId);
  return outcome.kind !== "failed";
}

export type RegistrationRequestInput = {
  name: string;
  organizationName: string;
  organizationType: OrganizationTypeCode;
  /** E.164. */
  mobileNumber: string;
};

/** Step 1: records the request and texts a 6-digit code (the latest request of a number is the one that counts). */
export async function requestAccessCode(
  services: AppServices,
  input: RegistrationRequestInput,
  clientAddress: string,
): Promise<SendOutcome> {
  const now = new Date();
  const { code, salt, hash } = createCode();
  const taken = await services.db.transaction(async (tx) => {
    const allowance = await takeSendAllowance(tx, input.mobileNumber, clientAddress, now);
    if (!("sendId" in allowance)) return allowance;
    const [request] = await tx
      .insert(registrationRequests)
      .values({
        ...input,
        codeSalt: salt,
        codeHash: hash,
        codeExpiresAt: new Date(now.getTime() + CODE_LIFETIME_MS),
        attemptsLeft: CODE_ATTEMPTS,
        lastCodeSentAt: now,
        createdAt: now,
      })
      .returning({ id: registrationRequests.id });
    if (!request) throw new Error("no request row");
    const message = await queueCode(tx, services, input.mobileNumber, code);
    return { sendId: allowance.sendId, requestId: request.id, messageId: message.id };
  });
  if (!("sendId" in taken)) return { kind: "throttled", ...taken };
  if (await deliverCode(services, taken.messageId)) return { kind: "sent", mobileNumber: input.mobileNumber };
  // Undelivered: nothing of the attempt stays behind, and it does not count against the limits.
  await services.db.transaction(async (tx) => {
    await tx.delete(registrationRequests).where(eq(registrationRequests.id, taken.requestId));
    await tx.delete(registrationCodeSends).where(eq(registrationCodeSends.id, taken.sendId));
  });
  return { kind: "failed" };
}

/** Step 2's "send a new code": a fresh code, expiry and tries for the number's latest unverified request. */
export async function resendAccessCode(
  services: AppServices,
  mobileNumber: string,
  clientAddress: string,
): Promise<SendOutcome | { kind: "no-request" }> {
  const now = new Date();
  const { code, salt, hash } = createCode();
  const taken = await services.db.transaction(async (tx) => {
    const [request] = await tx
      .select({ id: registrationRequests.id, verifiedAt: registrationRequests.verifiedAt })
      .from(registrationRequests)
      .where(eq(registrationRequests.mobileNumber, mobileNumber))
      .orderBy(desc(registrationRequests.id))
      .limit(1);
    if (!request || request.verifiedAt) return { noRequest: true as const };
    const allowance = await takeSendAllowance(tx, mobileNumber, clientAddress, now);
    if (!("sendId" in allowance)) return allowance;
    await tx
      .update(registrationRequests)
      .set({
        codeSalt: salt,
        codeHash: hash,
        codeExpiresAt: new Date(now.getTime() + CODE_LIFETIME_MS),
        attemptsLeft: CODE_ATTEMPTS,
        codesSent: sql`${registrationRequests.codesSent} + 1`,
        lastCodeSentAt: now,
      })
      .where(eq(registrationRequests.id, request.id));
    const message = await queueCode(tx, services, mobileNumber, code);
    return { sendId: allowance.sendId, messageId: message.id };
  });
  if ("noRequest" in taken) return { kind: "no-request" };
  if (!("sendId" in taken)) return { kind: "throttled", ...taken };
  if (await deliverCode(services, taken.messageId)) return { kind: "sent", mobileNumber };
  await services.db.delete(registrationCodeSends).where(eq(registrationCodeSends.id, taken.sendId));
  return { kind: "failed" };
}

export type VerifyOutcome =
  | { kind: "verified"; accessToken: string }
  | { kind: "invalid" /** Tries left on the current code (0 when used up, expired or none). */; attemptsLeft: number };

/**
 * Step 2: checks the code against the number's latest request; each wrong try uses one of 5. The
 * request's row is locked first, so simultaneous tries take turns and each sees the tries left by
 * those before it: no number of them gets more than 5 checks.
 */
export async function verifyAccessCode(db: Database, mobileNumber: string, code: string): Promise<VerifyOutcome> {
  const now = new Date();
  return db.transaction(async (tx) => {
    const [request] = await tx
      .select()
      .from(registrationRequests)
      .where(eq(registrationRequests.mobileNumber, mobileNumber))
      .orderBy(desc(registrationRequests.id))
      .limit(1)
      .for("update");
    if (!request || request.verifiedAt || request.attemptsLeft <= 0 || request.codeExpiresAt <= now) {
      return { kind: "invalid", attemptsLeft: 0 };
    }
    if (!sameHash(hashCode(request.codeSalt, code.trim()), request.codeHash)) {
      const attemptsLeft = request.attemptsLeft - 1;
      await tx.update(registrationRequests).set({ attemptsLeft }).where(eq(registrationRequests.id, request.id));
      return { kind: "invalid", attemptsLeft };
    }
    await tx.update(registrationRequests).set({ verifiedAt: now }).where(eq(registrationRequests.id, request.id));
    const accessToken = createRandomToken();
    await tx.insert(registrationAccessTokens).values({
      registrationRequestId: request.id,
      tokenHash: hashToken(accessToken),
      expiresAt: new Date(now.getTime() + ACCESS_TOKEN_LIFETIME_MS),
      createdAt: now,
    });
    return { kind: "verified", accessToken };
  });
}

export type AccessTokenState = {
  id: number;
  registrationRequestId: number;
  organizationType: OrganizationTypeCode;
  name: string;
  organizationName: string;
  mobileNumber: string;
  privacyPolicyAccepted: boolean;
  termsAccepted: boolean;
};

const plausibleToken = (token: string) => /^[A-Za-z0-9_-]{20,200}$/.test(token);

const usable = (token: string, now: Date) =>
  and(
    eq(registrationAccessTokens.tokenHash, hashToken(token)),
    isNull(registrationAccessTokens.usedAt),
    gt(registrationAccessTokens.expiresAt, now),
  );

/** The token's state if it is known, unspent and unexpired; otherwise undefined. */
export async function findUsableAccessToken(db: Executor, token: string): Promise<AccessTokenState | undefined> {
  if (!plausibleToken(token)) return undefined;
  const [row] = await db
    .select({
      id: registrationAccessTokens.id,
      registrationRequestId: registrationAccessTokens.registrationRequestId,
      organizationType: registrationRequests.organizationType,
      name: registrationRequests.name,
      organizationName: registrationRequests.organizationName,
      mobileNumber: registrationRequests.mobileNumber,
      privacyPolicyAcceptedAt: registrationAccessTokens.privacyPolicyAcceptedAt,
      termsAcceptedAt: registrationAccessTokens.termsAcceptedAt,
    })
    .from(registrationAccessTokens)
    .innerJoin(registrationRequests, eq(registrationRequests.id, registrationAccessTokens.registrationRequestId))
    .where(usable(token, new Date()));
  if (!row) return undefined;
  const { privacyPolicyAcceptedAt, termsAcceptedAt, organizationType, ...rest } = row;
  return {
    ...rest,
    organizationType: organizationType as OrganizationTypeCode,
    privacyPolicyAccepted: privacyPolicyAcceptedAt !== null,
    termsAccepted: termsAcceptedAt !== null,
  };
}

/** Step 3: records the privacy policy version accepted and when (the latest acceptance counts). */
export async function acceptPrivacyPolicy(db: Database, token: string): Promise<boolean> {
  if (!plausibleToken(token)) return false;
  const now = new Date();
  const updated = await db
    .update(registrationAccessTokens)
    .set({ privacyPolicyVersion: LEGAL_VERSIONS.privacyPolicy, privacyPolicyAcceptedAt: now })
    .where(usable(token, now))
    .returning({ id: registrationAccessTokens.id });
  return updated.length === 1;
}

export type TermsOutcome =
  | { kind: "accepted"; organizationType: OrganizationTypeCode }
  | { kind: "invalid" }
  | { kind: "privacy-policy-first" };

/** Step 4: needs the privacy policy accepted first; answers the organization type for step 5. */
export async function acceptTerms(db: Database, token: string): Promise<TermsOutcome> {
  if (!plausibleToken(token)) return { kind: "invalid" };
  const now = new Date();
  const [updated] = await db
    .update(registrationAccessTokens)
    .set({ termsVersion: LEGAL_VERSIONS.terms, termsAcceptedAt: now })
    .where(and(usable(token, now), isNotNull(registrationAccessTokens.privacyPolicyAcceptedAt)))
    .returning({ id: registrationAccessTokens.id });
  const state = await findUsableAccessToken(db, token);
  if (!state) return { kind: "invalid" };
  if (!updated) return { kind: "privacy-policy-first" };
  return { kind: "accepted", organizationType: state.organizationType };
}
