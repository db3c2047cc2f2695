import { type ReactNode, useEffect, useRef } from "react";

/**
 * A message box. 'Error!' alerts use the error style; success notices the success style. With
 * `focusKey`, it takes focus when it appears and whenever the key changes (the result of an action
 * the user just took, read first as the error summary is), on the server render via autofocus.
 */
export function Alert({
  title,
  tone = "error",
  children,
  focusKey,
}: {
  title: string;
  tone?: "error" | "success";
  children?: ReactNode;
  focusKey?: unknown;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const focus = focusKey !== undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus again for each new result
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus, focusKey]);
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
