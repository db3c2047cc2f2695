import { getFormProps, useForm } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import { Alert } from "~/forms/alert";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { TextField } from "~/forms/field";
import { summaryLinks } from "~/forms/form-errors";
import { parseSubmission } from "~/forms/parse-submission.server";
import { SubmitButton } from "~/forms/submit-button";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext, clientAddressContext } from "~/server/app-context";
import { INVALID_ACCESS_CODE, SEND_CODE_FAILED } from "../registration-texts";
import type { Route } from "./+types/verify-access-code";
import { formatMobileNumber, normalizeMobileNumber } from "./mobile-number";
import { verifyCodeFormSchema } from "./signup-schema";
import { resendAccessCode, verifyAccessCode } from "./signup-steps.server";

const NOT_FOUND = { mobileNumber: undefined, resent: false } as const;

export function loader({ request, params }: Route.LoaderArgs) {
  const mobileNumber = normalizeMobileNumber(params.mobileNumber);
  if (!mobileNumber) return data(NOT_FOUND, { status: 404 });
  return { mobileNumber, resent: new URL(request.url).searchParams.get("done") === "resent" };
}

const NO_REQUEST = "No code is waiting for this number. Please request a new code.";
const TRY_NEW_CODE = "This code can no longer be used. Please send a new code.";

export async function action({ request, params, context }: Route.ActionArgs) {
  const mobileNumber = normalizeMobileNumber(params.mobileNumber);
  if (!mobileNumber) return data({ result: undefined, resendError: NO_REQUEST }, { status: 404 });
  const services = context.get(appServicesContext);
  const formData = await readFormBody(request);

  if (formData.get("intent") === "resend") {
    const outcome = await resendAccessCode(services, mobileNumber, context.get(clientAddressContext));
    if (outcome.kind === "sent") {
      return redirect(`/signup/verify-access-code/${encodeURIComponent(mobileNumber)}?done=resent`);
    }
    const [status, message] =
      outcome.kind === "throttled"
        ? [429, outcome.message]
        : outcome.kind === "no-request"
          ? [404, NO_REQUEST]
          : [400, SEND_CODE_FAILED];
    return data({ result: undefined, resendError: message }, { status });
  }

  const submission = parseSubmission(formData, { schema: verifyCodeFormSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), resendError: undefined }, { status: 400 });
  }
  const outcome = await verifyAccessCode(services.db, mobileNumber, submission.value.verificationCode);
  if (outcome.kind === "invalid") {
    const formErrors = outcome.attemptsLeft > 0 ? [INVALID_ACCESS_CODE] : [INVALID_ACCESS_CODE, TRY_NEW_CODE];
    return data({ result: submission.reply({ formErrors }), resendError: undefined }, { status: 400 });
  }
  return redirect(`/signup/accept-privacy-policy/${outcome.accessToken}`);
}

export function meta() {
  return [{ title: pageTitle("Verify your mobile number") }];
}

export default function VerifyAccessCode({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "verify-access-code",
    lastResult: actionData?.result,
    ...validatedBy(verifyCodeFormSchema),
  });
  if (!loaderData.mobileNumber) {
    return (
      <div className="narrow">
        <h1>Verify your mobile number</h1>
        <Alert title="Error!">
          <p>That is not a mobile number we can send a code to.</p>
        </Alert>
        <p>
          <Link to="/signup">Request a code</Link>
        </p>
      </div>
    );
  }
  const resendError = actionData?.resendError;
  // A failed resend replaces whatever the last verification said.
  const formErrors = resendError ? [resendError] : form.errors;
  return (
    <div className="narrow">
      <h1>Verify your mobile number</h1>
      {loaderData.resent && !actionData ? (
        <Alert title="New code sent" tone="success" focus>
          <p>We have sent a new code. Earlier codes no longer work.</p>
        </Alert>
      ) : null}
      <p>
        We sent a 6-digit verification code by text message to{" "}
        <strong>{formatMobileNumber(loaderData.mobileNumber)}</strong>. It works for 10 minutes.
      </p>
      <Form method="post" {...getFormProps(form)} className="stack">
        <ErrorSummary
          formErrors={formErrors}
          fieldErrors={summaryLinks([fields.verificationCode])}
          submissionKey={actionData}
        />
        <TextField
          field={fields.verificationCode}
          label="Verification code"
          inputProps={{ autoComplete: "one-time-code", inputMode: "numeric", spellCheck: false }}
        />
        <SubmitButton>Verify</SubmitButton>
      </Form>
      <Form method="post" className="resend">
        <p>
          Did not get a code?{" "}
          <button type="submit" name="intent" value="resend" className="link-button link-button--inline">
            Send a new code
          </button>{" "}
          (at most once a minute) or <Link to="/signup">use a different number</Link>.
        </p>
      </Form>
    </div>
  );
}
