import { type ReactNode, useEffect, useRef } from "react";
import { useActionData, useLocation } from "react-router";

type AlertProps = {
  title: string;
  tone?: "error" | "success";
  children?: ReactNode;
  /**
   * The result of what the user just did: it takes focus when it appears, and again after each
   * navigation that shows it (a second bid's notice too), so it is read first, as the error summary
   * is; on the server render (no JavaScript) by autofocus. A notice carried by the address (after a
   * redirect) yields to a later submission answered on the page (its error summary is read first);
   * "answer": the notice is that answer itself.
   */
  focus?: boolean | "answer";
};

/** A message box. 'Error!' alerts use the error style; success notices the success style. */
export function Alert({ focus = false, ...props }: AlertProps) {
  return focus ? <FocusedAlert {...props} fromAnswer={focus === "answer"} /> : <AlertBox {...props} />;
}

function AlertBox({
  title,
  tone = "error",
  children,
  focusRef,
}: Omit<AlertProps, "focus"> & { focusRef?: React.RefObject<HTMLDivElement | null> }) {
  return (
    <div
      className={`alert alert--${tone}`}
      role={tone === "error" ? "alert" : "status"}
      ref={focusRef}
      tabIndex={focusRef ? -1 : undefined}
      // biome-ignore lint/a11y/noAutofocus: the result of the user's own action is read first, even without JavaScript
      autoFocus={focusRef ? true : undefined}
    >
      <h2 className="alert__title">{title}</h2>
      {children}
    </div>
  );
}

/** Only a result uses the router's location (a plain alert renders anywhere, in tests too). */
function FocusedAlert({ fromAnswer, ...props }: Omit<AlertProps, "focus"> & { fromAnswer: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const { key } = useLocation();
  const yields = useActionData() !== undefined && !fromAnswer;
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus again after each navigation
  useEffect(() => {
    // An error summary shown with it (a later submission that failed) is read first.
    if (!yields && !document.activeElement?.closest(".alert--error")) ref.current?.focus();
  }, [key, yields]);
  return <AlertBox {...props} focusRef={yields ? undefined : ref} />;
}
