import { getFormProps, useForm } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { SelectField, TextField } from "~/forms/field";
import { summaryLinks } from "~/forms/form-errors";
import { parseSubmission } from "~/forms/parse-submission.server";
import { SubmitButton } from "~/forms/submit-button";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext, clientAddressContext } from "~/server/app-context";
import { ORGANIZATION_TYPES, type OrganizationTypeCode } from "~/shared/roles";
import { organizationTypeCodeOf, SEND_CODE_FAILED } from "../registration-texts";
import type { Route } from "./+types/signup";
import { signupFormSchema } from "./signup-schema";
import { requestAccessCode } from "./signup-steps.server";

export function loader({ request }: Route.LoaderArgs) {
  const type = organizationTypeCodeOf(new URL(request.url).searchParams.get("type"));
  return { organizationType: type ? String(type) : undefined };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseSubmission(await readFormBody(request), { schema: signupFormSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply() }, { status: 400 });
  }
  const outcome = await requestAccessCode(
    context.get(appServicesContext),
    { ...submission.value, organizationType: Number(submission.value.organizationType) as OrganizationTypeCode },
    context.get(clientAddressContext),
  );
  if (outcome.kind === "throttled") {
    return data(
      { result: submission.reply({ fieldErrors: { mobileNumber: [outcome.message] } }) },
      { status: 429, headers: { "Retry-After": String(outcome.retryAfterSeconds) } },
    );
  }
  if (outcome.kind === "failed") {
    return data({ result: submission.reply({ formErrors: [SEND_CODE_FAILED] }) }, { status: 400 });
  }
  return redirect(`/signup/verify-access-code/${encodeURIComponent(outcome.mobileNumber)}`);
}

export function meta({ data: pageData }: Route.MetaArgs) {
  return [{ title: pageTitle("Sign up", { hasErrors: Boolean(pageData && "result" in pageData) }) }];
}

const organizationTypeOptions = ORGANIZATION_TYPES.map((type) => ({ value: String(type.code), label: type.label }));

export default function Signup({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "signup",
    lastResult: actionData?.result,
    defaultValue: { organizationType: loaderData.organizationType },
    ...validatedBy(signupFormSchema),
  });
  return (
    <div className="narrow">
      <h1>Sign up</h1>
      <p>
        Register your organization as a buyer, seller or consultant. We will text a 6-digit verification code to your
        mobile number; it works for 10 minutes.
      </p>
      <Form method="post" {...getFormProps(form)} className="stack">
        <ErrorSummary
          formErrors={form.errors}
          fieldErrors={summaryLinks([
            fields.name,
            fields.organizationName,
            fields.organizationType,
            fields.mobileNumber,
          ])}
          submissionKey={actionData}
        />
        <TextField field={fields.name} label="Your Name" inputProps={{ autoComplete: "name" }} />
        <TextField
          field={fields.organizationName}
          label="Organization Name"
          inputProps={{ autoComplete: "organization" }}
        />
        <SelectField field={fields.organizationType} label="Organization Type" options={organizationTypeOptions} />
        <TextField
          field={fields.mobileNumber}
          label="Mobile Number"
          type="tel"
          hint="A North American number, or include the country code, for example +44."
          inputProps={{ autoComplete: "tel", placeholder: "xxx-xxx-xxxx", inputMode: "tel" }}
        />
        <SubmitButton>Request Code</SubmitButton>
      </Form>
      <p>
        Already registered? <Link to="/login">Sign in</Link>
      </p>
    </div>
  );
}
