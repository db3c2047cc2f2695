import type { ReactNode } from "react";

/** One label and value of a page's summary list. */
export function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
