import type { ReactNode } from "react";
import { Form } from "react-router";

// A table row's one action (remove, delete): a post form with the intent, the row's id field and a
// button that looks like a link. Its text names the row, so each button is told apart out of context.

export function RowActionForm({
  intent,
  name,
  value,
  action,
  children,
}: {
  intent: string;
  name: string;
  value: string | number;
  action?: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={name} value={value} />
      <button type="submit" className="link-button">
        {children}
      </button>
    </Form>
  );
}
