import type { ReactNode } from "react";
import { useNavigation } from "react-router";

/**
 * Disabled only while this page's submission is in flight, in the browser; the server never
 * renders it disabled, so it cannot strand a user without JavaScript. Re-enabled on failure.
 */
export function SubmitButton({
  children,
  secondary = false,
  busy = false,
}: {
  children: ReactNode;
  secondary?: boolean;
  /** Work of the page's own before the submission (e.g. asking the card provider for a token). */
  busy?: boolean;
}) {
  const navigation = useNavigation();
  const pending = busy || navigation.state === "submitting";
  return (
    <button
      type="submit"
      className={secondary ? "button button--secondary" : "button"}
      disabled={pending}
      aria-disabled={pending || undefined}
    >
      {children}
    </button>
  );
}
