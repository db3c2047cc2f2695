import { eq } from "drizzle-orm";
import { deliverNow, queueMessage } from "~/messaging/delivery/outbox.server";
import { AwaitedKind } from "~/messaging/message-kinds";
import type { AppServices } from "~/server/app-context";
import { describeWait } from "~/shared/words";
import { users } from "~db/schema";
import { RESET_PROBLEM } from "../account-texts";
import { accountLinkUrl, issueAccountToken } from "../account-tokens.server";
import { normalizeEmail } from "../schemas";

export type ResetRequestOutcome = { kind: "sent" } | { kind: "failed"; message: string; status: number };

/**
 * The same answer whether or not the address has an account; the e-mail goes only to real ones.
 * Throttled per address and per client.
 */
export async function requestPasswordReset(
  services: AppServices,
  rawEmail: string,
  clientAddress: string,
): Promise<ResetRequestOutcome> {
  const email = normalizeEmail(rawEmail);
  const decision = await services.throttles.takeResetRequest(email, clientAddress);
  if (!decision.allowed) {
    return {
      kind: "failed",
      status: 429,
      message: `Too many password reset requests. Please wait ${describeWait(decision.retryAfterSeconds)} and try again.`,
    };
  }
  const [user] = await services.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!user) return { kind: "sent" };

  // The link and its e-mail in one transaction; the request then makes the first attempt itself.
  const { id } = await services.db.transaction(async (tx) => {
    const token = await issueAccountToken(tx, user.id, "password_reset");
    const link = accountLinkUrl(services.env.APP_URL, "password_reset", token);
    return queueMessage(
      tx,
      services.messaging,
      {
        channel: "email",
        kind: AwaitedKind.PasswordReset,
        to: email,
        subject: "Reset your Upstream Marketplace password",
        text: [
          "We received a request to reset the password of your Upstream Marketplace account.",
          "",
          `Choose a new password here (the link works once, for 1 hour):`,
          link,
          "",
          "If you did not ask for this, you can ignore this e-mail: your password stays as it is.",
        ].join("\n"),
      },
      { firstAttemptInline: true },
    );
  });
  // Refused by the provider (an invalid or inactive address): the user is told. A transient failure
  // stays queued for a retry, and the user is told it was sent.
  const outcome = await deliverNow(services, id);
  if (outcome.kind === "failed") return { kind: "failed", status: 400, message: RESET_PROBLEM };
  return { kind: "sent" };
}
