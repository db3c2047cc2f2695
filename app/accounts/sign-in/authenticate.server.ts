import { eq } from "drizzle-orm";
import type { RouterContextProvider } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { type AppServices, appServicesContext, clientAddressContext } from "~/server/app-context";
import { loadUser } from "~/sessions/auth.server";
import type { CurrentUser } from "~/sessions/current-user";
import { users } from "~db/schema";
import { verifyPassword } from "../password.server";
import { normalizeEmail, signInSchema } from "../schemas";

export class SignInRefused extends Error {
  constructor(
    readonly reason: "invalid" | "throttled",
    readonly retryAfterSeconds = 0,
  ) {
    super(reason);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * remix-auth's form strategy over our users table, with throttling per account and address, per
 * account and per address (SIGN_IN_POLICY).
 * Throws SignInRefused; never says whether the address has an account.
 */
export function createAuthenticator(services: AppServices, clientAddress: string) {
  const authenticator = new Authenticator<CurrentUser>();
  authenticator.use(
    new FormStrategy(async ({ form }) => {
      const parsed = signInSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success) throw new SignInRefused("invalid");
      const email = normalizeEmail(parsed.data.email);
      // Counted before the password is checked, so simultaneous guesses cannot outrun the limits.
      const decision = await services.throttles.takeSignInAttempt(email, clientAddress);
      if (!decision.allowed) throw new SignInRefused("throttled", decision.retryAfterSeconds);
      if (decision.delayMs > 0) await sleep(decision.delayMs);

      const [account] = await services.db
        .select({ id: users.id, passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.email, email));
      const valid = await verifyPassword(account?.passwordHash ?? null, parsed.data.password);
      const user = valid && account ? await loadUser(services.db, account.id) : null;
      if (!user) throw new SignInRefused("invalid");
      await services.throttles.signInSucceeded(email, clientAddress);
      return user;
    }),
    "form",
  );
  return authenticator;
}

/** Authenticates the request's form body (email, password). */
export function authenticate(request: Request, context: Readonly<RouterContextProvider>): Promise<CurrentUser> {
  const services = context.get(appServicesContext);
  return createAuthenticator(services, context.get(clientAddressContext)).authenticate("form", request);
}
