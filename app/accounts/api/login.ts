import { apiErrors, apiJson, readApiBody, zodErrors } from "~/api/api-responses.server";
import { startSession } from "~/sessions/auth.server";
import { INVALID_SIGN_IN } from "../account-texts";
import { signInSchema } from "../schemas";
import { authenticate, SignInRefused } from "../sign-in/authenticate.server";
import type { Route } from "./+types/login";
import { signedInAnswer } from "./api-schema";

/** POST /api/account/login {email, password} → 200 {"user": {id, email, role}} and a session cookie. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = signInSchema.safeParse(await readApiBody(request));
  if (!parsed.success) return apiErrors(400, zodErrors(parsed.error));
  // remix-auth's form strategy reads a form body: hand it one with the same fields.
  const formRequest = new Request(request.url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: parsed.data.email, password: parsed.data.password }),
  });
  try {
    const user = await authenticate(formRequest, context);
    const cookie = await startSession(request, context, user.id);
    return apiJson(
      signedInAnswer,
      { user: { id: user.id, email: user.email, role: user.role } },
      { headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } },
    );
  } catch (error) {
    if (!(error instanceof SignInRefused)) throw error;
    if (error.reason === "throttled") {
      return apiErrors(
        429,
        { form: "Too many failed sign-in attempts. Please try again later." },
        { "Retry-After": String(error.retryAfterSeconds) },
      );
    }
    return apiErrors(401, { form: INVALID_SIGN_IN });
  }
}
