import { data, redirect } from "react-router";
import { parseSubmission } from "~/forms/parse-submission.server";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { getCurrentUser, startSession } from "~/sessions/auth.server";
import { describeWait } from "~/shared/words";
import { INVALID_SIGN_IN } from "../account-texts";
import { signInSchema } from "../schemas";
import type { Route } from "./+types/login";
import { authenticate, SignInRefused } from "./authenticate.server";
import { safeRedirect } from "./safe-redirect";
import { SignInForm } from "./sign-in-form";

export function loader({ request, context }: Route.LoaderArgs) {
  const ref = new URL(request.url).searchParams.get("ref");
  if (getCurrentUser(context)) throw redirect(safeRedirect(ref));
  return { redirectTo: ref ? safeRedirect(ref) : undefined };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormBody(request.clone());
  const submission = parseSubmission(formData, { schema: signInSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  try {
    const user = await authenticate(request, context);
    const cookie = await startSession(request, context, user.id);
    return redirect(safeRedirect(submission.value.redirectTo), { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (!(error instanceof SignInRefused)) throw error;
    const throttled = error.reason === "throttled";
    const message = throttled
      ? `Too many failed sign-in attempts. Please wait ${describeWait(error.retryAfterSeconds)} and try again.`
      : INVALID_SIGN_IN;
    return data(
      { result: submission.reply({ formErrors: [message], hideFields: ["password"] }) },
      {
        status: throttled ? 429 : 401,
        headers: throttled ? { "Retry-After": String(error.retryAfterSeconds) } : undefined,
      },
    );
  }
}

export function meta({ data: actionOrLoader }: Route.MetaArgs) {
  return [{ title: pageTitle("Sign in", { hasErrors: Boolean(actionOrLoader && "result" in actionOrLoader) }) }];
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="narrow">
      <h1>Sign in</h1>
      <SignInForm id="login" lastResult={actionData?.result} redirectTo={loaderData.redirectTo} />
    </div>
  );
}
