import { apiErrors, apiJson, readApiBody, zodErrors } from "~/api/api-responses.server";
import { CARD_REQUIRED } from "~/payments/card-capture/card-capture";
import { appServicesContext } from "~/server/app-context";
import { INCOMPLETE_FORM } from "../form/registration-data";
import { createSellerRegistrationSchema, NO_SERVICE_CHOSEN } from "../seller-form/seller-registration-schema";
import { registerSeller } from "../seller-form/seller-registration-store.server";
import type { Route } from "./+types/register-seller";
import { registrationAnswer } from "./registration-api-schema";

/** The form-level message: the service one when that is the only problem (spec section 8). */
const formMessage = (errors: Record<string, string>) =>
  Object.keys(errors).every((key) => key === "services") && errors.services === NO_SERVICE_CHOSEN
    ? NO_SERVICE_CHOSEN
    : INCOMPLETE_FORM;

/**
 * POST /api/registration/register_seller {sellerRegistrationData, stripe_payment_token} → 201 once,
 * 200 for a resubmission of the same data (409 Invalid access token. for other data); a refused
 * card → 402 {"errors":{"card": provider's message}}.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appServicesContext);
  const body = await readApiBody(request);
  const parsed = createSellerRegistrationSchema().safeParse(body);
  const errors = parsed.success ? {} : zodErrors(parsed.error);
  const paymentToken = parsed.success ? parsed.data.stripe_payment_token : body.stripe_payment_token;
  if (typeof paymentToken !== "string" || paymentToken.trim() === "") errors.card ??= CARD_REQUIRED;
  if (!parsed.success || errors.card) return apiErrors(400, { ...errors, form: formMessage(errors) });
  const outcome = await registerSeller(services, parsed.data, paymentToken as string);
  switch (outcome.kind) {
    case "invalid-fields":
      return apiErrors(400, { ...outcome.errors, form: formMessage(outcome.errors) });
    case "card-refused":
      return apiErrors(402, { card: outcome.message });
    case "payment-unavailable":
      return apiErrors(503, { card: outcome.message });
    case "refused":
      return apiErrors(outcome.status, { form: outcome.message });
    case "already-submitted":
      return apiJson(
        registrationAnswer,
        { registration: { id: outcome.registrationId, status: "submitted" } },
        { status: 200 },
      );
    case "created":
      return apiJson(
        registrationAnswer,
        { registration: { id: outcome.registrationId, status: "submitted" } },
        { status: 201 },
      );
  }
}
