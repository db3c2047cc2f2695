import { data, type RouterContextProvider, redirect } from "react-router";
import { parseSubmission } from "~/forms/parse-submission.server";
import {
  CARD_CAPTURE_FIELD_NAMES,
  CARD_FIELD_NAMES,
  cardPaymentSetup,
  STRIPE_TOKEN_FIELD,
} from "~/payments/card-capture/card-capture";
import { answerCheckoutReturn, answerRefusal, readPostedCard } from "~/payments/card-capture/card-capture.server";
import { cardLabel } from "~/payments/card-label";
import { CARD_NOT_SAVED } from "~/payments/payments";
import { sellerSubscriptionOf } from "~/payments/subscriptions/seller-subscription.server";
import { logger } from "~/platform/logger.server";
import { readFormBody } from "~/platform/request-body.server";
import type { AppServices } from "~/server/app-context";
import { requireUser } from "~/sessions/auth.server";
import type { CurrentUser } from "~/sessions/current-user";
import { Role } from "~/shared/roles";
import {
  type CardReplacementOutcome,
  completeCardCheckout,
  organizationCardOf,
  replaceOrganizationCard,
  startCardCheckout,
} from "./card-replacement.server";
import { CARD_CHECKOUT_RETURN_PATH, CARD_REPLACED_PATH, createCardReplacementSchema } from "./card-schema";

// Loader and action of /account/card and the loader of its Stripe Checkout return page.

export const CARD_NOT_REPLACED = "Your card could not be replaced. Please try again in a few minutes.";

export type SellerAdmin = CurrentUser & { organizationId: number };

/** The seller organization's administrator; visitors go to sign in, everyone else gets 403. */
export function requireSellerAdmin(request: Request, context: Readonly<RouterContextProvider>): SellerAdmin {
  const user = requireUser(request, context);
  if (user.role !== Role.Seller || !user.organizationId || !user.isOrganizationAdmin) throw data(null, { status: 403 });
  return user as SellerAdmin;
}

export async function loadCardPage(services: AppServices, user: SellerAdmin) {
  const card = await organizationCardOf(services.db, user.organizationId);
  if (!card) throw data(null, { status: 404 });
  const subscription = await sellerSubscriptionOf(services.db, user.organizationId);
  return {
    card: cardLabel(card.cardBrand, card.cardLast4),
    payment: cardPaymentSetup(services.payments),
    /** What saving a new card does to the subscription: starts a failed one, renews a cancelled one. */
    subscriptionState:
      subscription?.status === "failed" || subscription?.status === "cancelled" ? subscription.status : "running",
  };
}

/** The card is never sent back to the page: after any answer it is typed again. */
const REPLY = { hideFields: CARD_CAPTURE_FIELD_NAMES };

export async function submitCardPage(request: Request, services: AppServices, user: SellerAdmin) {
  const { payments } = services;
  const formData = await readFormBody(request);
  const submission = parseSubmission(formData, {
    schema: createCardReplacementSchema({ cardFields: payments.provider === "test" }),
  });
  const answer = (status: number, result: ReturnType<typeof submission.reply>, cardError?: string) =>
    data({ result, cardError }, { status });

  if (submission.status !== "success") {
    // Only the card fields have controls; anything else is a form the page did not send.
    const unexpected = Object.keys(submission.error ?? {}).some(
      (name) => !(CARD_FIELD_NAMES as string[]).includes(name),
    );
    return answer(400, submission.reply({ ...REPLY, formErrors: unexpected ? [CARD_NOT_SAVED] : [] }));
  }

  let outcome: CardReplacementOutcome | { kind: "checkout"; url: string };
  try {
    const posted = readPostedCard(payments, formData, submission.value[STRIPE_TOKEN_FIELD], {
      appUrl: services.env.APP_URL,
      returnPath: CARD_CHECKOUT_RETURN_PATH,
    });
    if (posted.kind === "card-refused") outcome = posted;
    else if (posted.kind === "token") outcome = await replaceOrganizationCard(services, user, posted.token);
    else outcome = await startCardCheckout(services, user, posted.urls);
  } catch (error) {
    logger.error({ err: error }, "a seller's card could not be replaced");
    return answer(503, submission.reply({ ...REPLY, formErrors: [CARD_NOT_REPLACED] }));
  }

  switch (outcome.kind) {
    case "replaced":
      return redirect(CARD_REPLACED_PATH);
    case "checkout":
      return redirect(outcome.url);
    case "card-refused":
    case "payment-unavailable": {
      const refused = answerRefusal(outcome, (options) => submission.reply({ ...REPLY, ...options }));
      return answer(refused.status, refused.result, refused.cardError);
    }
    case "not-found":
      throw data(null, { status: 404 });
  }
}

/** Back from Stripe Checkout: the new card in place (then to /account), or why not. */
export const loadCardCheckoutReturn = (request: Request, services: AppServices, user: SellerAdmin) =>
  answerCheckoutReturn(request, {
    complete: async (sessionId) => {
      const result = await completeCardCheckout(services, user, sessionId);
      return result.kind === "replaced" ? "complete" : result.kind;
    },
    completedPath: CARD_REPLACED_PATH,
    statuses: { unknown: 404, unavailable: 503 },
    what: "reading a Stripe Checkout session for a new card",
  });
