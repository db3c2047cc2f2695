import type { ReactNode } from "react";
import { useNavigation } from "react-router";

/**
 * Disabled only while this page's submission is in flight, in the browser; the server never
 * renders it disabled, so it cannot strand a user without JavaScript. Re-enabled on failure.
 */
export function SubmitButton({ children, secondary = false }: { children: ReactNode; secondary?: boolean }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
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
