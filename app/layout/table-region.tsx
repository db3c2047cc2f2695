import type { ReactNode } from "react";

/**
 * A wide table's scrolling box. It can take keyboard focus and is a named region, so keyboard users
 * can scroll it too (WCAG 2.1.1; axe: scrollable-region-focusable).
 */
export function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section className="table-wrap" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
