import { getFormProps, useForm } from "@conform-to/react";
import { useMemo } from "react";
import { Form, Link } from "react-router";
import type { z } from "zod";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { SubmitButton } from "~/forms/submit-button";
import { pageTitle } from "~/layout/page-title";
import { type CardCaptureValues, STRIPE_TOKEN_FIELD } from "~/payments/card-capture/card-capture";
import { CardCaptureFields, cardSummaryLinks } from "~/payments/card-capture/card-capture-fields";
import { useCardCapture } from "~/payments/card-capture/use-card-capture";
import { SELLER_RENEWAL_CENTS } from "~/payments/fees";
import { appServicesContext } from "~/server/app-context";
import { formatCents } from "~/shared/money";
import type { Route } from "./+types/card";
import { loadCardPage, requireSellerAdmin, submitCardPage } from "./card-page.server";
import { createCardReplacementSchema } from "./card-schema";

// /account/card: a seller's administrator replaces the card the yearly subscription is charged to.
// The test provider's fields, Stripe.js's with JavaScript, or Stripe Checkout without it.

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireSellerAdmin(request, context);
  return loadCardPage(context.get(appServicesContext), user);
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireSellerAdmin(request, context);
  return submitCardPage(request, context.get(appServicesContext), user);
}

export function meta() {
  return [{ title: pageTitle("Replace the card") }];
}

const FORM_ID = "card-replacement";

export default function CardReplacement({ loaderData, actionData }: Route.ComponentProps) {
  const { card, payment, subscriptionState } = loaderData;
  const schema = useMemo(() => createCardReplacementSchema({ cardFields: payment.provider === "test" }), [payment]);
  const [form, fields] = useForm<CardCaptureValues, z.output<typeof schema>>({
    id: FORM_ID,
    lastResult: actionData?.result,
    ...validatedBy(schema),
  });
  const capture = useCardCapture(payment, { serverAnswer: actionData, serverCardError: actionData?.cardError });
  const formProps = getFormProps(form);

  return (
    <div className="narrow">
      <p>
        <Link to="/account">Your account</Link>
      </p>
      <h1>Replace the card</h1>
      <ErrorSummary
        formErrors={form.errors}
        fieldErrors={cardSummaryLinks(fields)}
        submissionKey={[actionData, capture.attempts]}
      />
      <dl className="summary-list">
        <div>
          <dt>Current card</dt>
          <dd>{card ?? "No card is saved"}</dd>
        </div>
      </dl>
      <p>
        {subscriptionState === "failed"
          ? "Your subscription could not be started. Once the new card is saved we start it again on that card."
          : subscriptionState === "cancelled"
            ? `Your subscription has been cancelled. Once the new card is saved we renew it on that card: ${formatCents(SELLER_RENEWAL_CENTS)} (yearly subscription and GST) is charged at once.`
            : "The yearly subscription is charged to this card. Nothing is charged when you replace it."}
      </p>
      <section aria-labelledby={`${FORM_ID}-heading`}>
        <h2 id={`${FORM_ID}-heading`}>New card</h2>
        <Form
          method="post"
          {...formProps}
          onSubmit={(event) => capture.onSubmit(event, formProps.onSubmit)}
          className="stack"
        >
          <input type="hidden" name={STRIPE_TOKEN_FIELD} defaultValue="" />
          <CardCaptureFields
            id={FORM_ID}
            payment={payment}
            cardFields={fields}
            {...capture.card}
            stripeFallback={
              <p>
                After you press the button you will enter the new card on Stripe's secure payment page, then come back
                here.
              </p>
            }
          />
          <SubmitButton busy={capture.requestingToken}>Replace the card</SubmitButton>
        </Form>
      </section>
    </div>
  );
}
