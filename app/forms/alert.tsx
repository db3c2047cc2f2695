import type { ReactNode } from "react";

/** A message box. 'Error!' alerts use the error style; success notices the success style. */
export function Alert({
  title,
  tone = "error",
  children,
}: {
  title: string;
  tone?: "error" | "success";
  children?: ReactNode;
}) {
  return (
    <div className={`alert alert--${tone}`} role={tone === "error" ? "alert" : "status"}>
      <h2 className="alert__title">{title}</h2>
      {children}
    </div>
  );
}
