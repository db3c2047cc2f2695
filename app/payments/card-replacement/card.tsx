import { getFormProps, type Submission, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { type FormEvent, useMemo, useState } from "react";
import { Form, Link } from "react-router";
import { ErrorSummary } from "~/forms/error-summary";
import { summaryLinks } from "~/forms/form-errors";
import { SubmitButton } from "~/forms/submit-button";
import { pageTitle } from "~/layout/page-title";
import { CardDetailsFields } from "~/payments/card-capture/card-details-fields";
import { STRIPE_TOKEN_FIELD } from "~/payments/card-capture/card-fields";
import { useCardToken } from "~/payments/card-capture/use-card-token";
import { appServicesContext } from "~/platform/app-context";
import type { Route } from "./+types/card";
import { createCardReplacementSchema } from "./card-form";
import { loadCardPage, requireSellerAdmin, submitCardPage } from "./card-page.server";

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

type CardFormValues = Record<
  "stripe_payment_token" | "card_number" | "card_exp_month" | "card_exp_year" | "card_cvc",
  string
>;

const FORM_ID = "card-replacement";

export default function CardReplacement({ loaderData, actionData }: Route.ComponentProps) {
  const { card, payment, subscriptionFailed } = loaderData;
  const schema = useMemo(() => createCardReplacementSchema({ cardFields: payment.provider === "test" }), [payment]);
  const [form, fields] = useForm<CardFormValues>({
    id: FORM_ID,
    lastResult: actionData?.result,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }) as Submission<CardFormValues>,
  });
  const [attempts, setAttempts] = useState(0);
  const { stripeCard, requestingToken, cardRefusal, submitWithToken } = useCardToken(payment.provider);
  const cardError = cardRefusal?.message ?? actionData?.cardError;
  const fieldLinks = summaryLinks([fields.card_number, fields.card_exp_month, fields.card_exp_year, fields.card_cvc]);
  const formProps = getFormProps(form);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    setAttempts((count) => count + 1);
    formProps.onSubmit(event);
    submitWithToken(event, attempts + 1);
  }

  return (
    <div className="narrow">
      <p>
        <Link to="/account">Your account</Link>
      </p>
      <h1>Replace the card</h1>
      <ErrorSummary formErrors={form.errors} fieldErrors={fieldLinks} submissionKey={[actionData, attempts]} />
      <dl className="summary-list">
        <div>
          <dt>Current card</dt>
          <dd>{card ?? "No card is saved"}</dd>
        </div>
      </dl>
      <p>
        {subscriptionFailed
          ? "Your subscription could not be started. Once the new card is saved we start it again on that card."
          : "The yearly subscription is charged to this card. Nothing is charged when you replace it."}
      </p>
      <section aria-labelledby={`${FORM_ID}-heading`}>
        <h2 id={`${FORM_ID}-heading`}>New card</h2>
        <Form method="post" {...formProps} onSubmit={onSubmit} className="stack">
          <input type="hidden" name={STRIPE_TOKEN_FIELD} defaultValue="" />
          <CardDetailsFields
            id={FORM_ID}
            payment={payment}
            cardFields={fields}
            cardError={cardError}
            cardErrorKey={[actionData, cardRefusal?.attempt]}
            stripeCard={stripeCard}
            stripeFallback={
              <p>
                After you press the button you will enter the new card on Stripe's secure payment page, then come back
                here.
              </p>
            }
          />
          <SubmitButton busy={requestingToken}>Replace the card</SubmitButton>
        </Form>
      </section>
    </div>
  );
}
