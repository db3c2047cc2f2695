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
import { RESET_PROBLEM, RESET_SENT } from "../account-texts";
import { forgotPasswordSchema } from "../schemas";
import type { Route } from "./+types/forgot-password";
import { requestPasswordReset } from "./password-reset-request.server";

export function loader({ request }: Route.LoaderArgs) {
  return { sent: new URL(request.url).searchParams.get("done") === "sent" };
}

/** A malformed address (as opposed to none at all) also gets the spec's delivery message. */
function malformedAddressErrors(formData: FormData): string[] {
  const typed = formData.get("email");
  return typeof typed === "string" && typed.trim() !== "" ? [RESET_PROBLEM] : [];
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormBody(request);
  const submission = parseSubmission(formData, { schema: forgotPasswordSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: malformedAddressErrors(formData) }) }, { status: 400 });
  }
  const outcome = await requestPasswordReset(
    context.get(appServicesContext),
    submission.value.email,
    context.get(clientAddressContext),
  );
  if (outcome.kind === "failed") {
    return data({ result: submission.reply({ formErrors: [outcome.message] }) }, { status: outcome.status });
  }
  return redirect("/forgot-password?done=sent");
}

export function meta({ data: pageData }: Route.MetaArgs) {
  return [{ title: pageTitle("Forgot your password?", { hasErrors: Boolean(pageData && "result" in pageData) }) }];
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult: actionData?.result,
    // The same answer as the server's, without a round trip.
    ...validatedBy(forgotPasswordSchema, {
      adjustErrors: (error, formData) => {
        const formErrors = malformedAddressErrors(formData);
        if (formErrors.length) error[""] = formErrors;
      },
    }),
  });

  if (loaderData.sent && !actionData) {
    return (
      <div className="narrow">
        <h1>Forgot your password?</h1>
        <Alert title={RESET_SENT} tone="success" focus>
          <p>
            If an account uses that address, we have sent it an e-mail with a link to choose a new password. Check your
            email (and its spam folder); the link works once, for 1 hour.
          </p>
        </Alert>
        <p>
          <Link to="/login">Back to sign in</Link>
        </p>
      </div>
    );
  }

  return (
    <div className="narrow">
      <h1>Forgot your password?</h1>
      <p>Enter the e-mail address of your account and we will send you a link to choose a new password.</p>
      <Form method="post" {...getFormProps(form)} className="stack">
        <ErrorSummary formErrors={form.errors} fieldErrors={summaryLinks([fields.email])} submissionKey={actionData} />
        <TextField
          field={fields.email}
          label="Email"
          type="email"
          inputProps={{ autoComplete: "email", spellCheck: false }}
        />
        <div className="button-row">
          <SubmitButton>Submit</SubmitButton>
          <Link to="/login">Back to sign in</Link>
        </div>
      </Form>
    </div>
  );
}
