import { type ReactNode, useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * A message box. 'Error!' alerts use the error style; success notices the success style. With
 * `focus`, it is the result of what the user just did: it takes focus when it appears, and again
 * after each navigation that shows it (a second bid's notice too), so it is read first, as the error
 * summary is; on the server render (no JavaScript) by autofocus.
 */
export function Alert({
  title,
  tone = "error",
  children,
  focus = false,
}: {
  title: string;
  tone?: "error" | "success";
  children?: ReactNode;
  focus?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const { key } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus again after each navigation
  useEffect(() => {
    // An error summary shown with it (a later submission that failed) is read first.
    if (focus && !document.activeElement?.closest(".alert--error")) ref.current?.focus();
  }, [focus, key]);
  return (
    <div
      className={`alert alert--${tone}`}
      role={tone === "error" ? "alert" : "status"}
      ref={ref}
      tabIndex={focus ? -1 : undefined}
      // biome-ignore lint/a11y/noAutofocus: the result of the user's own action is read first, even without JavaScript
      autoFocus={focus || undefined}
    >
      <h2 className="alert__title">{title}</h2>
      {children}
    </div>
  );
}
