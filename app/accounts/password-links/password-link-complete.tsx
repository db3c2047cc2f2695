import { Alert } from "~/forms/alert";
import type { PageScripts } from "~/layout/no-javascript";
import { pageTitle } from "~/layout/page-title";
import type { Route } from "./+types/password-link-complete";
import { SignInLink } from "./link-problem";

// One page for the three completions; the route's id tells which (see app/routes.ts).
const completions = {
  "reset-complete": {
    title: "Password reset",
    heading: "Your password has been reset.",
    text: "You can now sign in with your new password.",
  },
  "set-complete": {
    title: "Password set",
    heading: "Password set!",
    text: "You can now sign in with your new password.",
  },
  "setup-complete": {
    title: "Setup complete",
    heading: "Setup Complete! Your account is now setup.",
    text: "You can now sign in.",
  },
} as const;

type CompletionId = keyof typeof completions;

// Works without JavaScript: a first visit gets none (issue 20).
export const handle: PageScripts = { hydrate: false };

export function loader({ request }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname;
  const id: CompletionId = path.startsWith("/account-setup")
    ? "setup-complete"
    : path.startsWith("/set-password")
      ? "set-complete"
      : "reset-complete";
  return { id };
}

export function meta({ data: pageData }: Route.MetaArgs) {
  return [{ title: pageTitle(pageData ? completions[pageData.id].title : "Done") }];
}

export default function PasswordLinkComplete({ loaderData }: Route.ComponentProps) {
  const completion = completions[loaderData.id];
  return (
    <div className="narrow">
      <h1>{completion.title}</h1>
      <Alert title={completion.heading} tone="success" focus>
        <p>{completion.text}</p>
      </Alert>
      <SignInLink />
    </div>
  );
}
