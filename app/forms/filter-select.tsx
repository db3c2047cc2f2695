import type { ReactNode } from "react";
import { Form } from "react-router";

/** A list page's GET filter form: its selects, then the Filter button (works without JavaScript). */
export function FilterForm({ children }: { children: ReactNode }) {
  return (
    <Form method="get" className="filter-row">
      {children}
      <button type="submit" className="button button--secondary">
        Filter
      </button>
    </Form>
  );
}

/**
 * One select of a list page's GET filter form (the staff queue, invoices): an "all" choice first, the
 * current filter chosen, so the form works without JavaScript and shows what the list is filtered by.
 */
export function FilterSelect({
  name,
  label,
  all,
  value,
  options,
}: {
  name: string;
  label: string;
  all: string;
  value: string | number;
  options: { value: string; label: string }[];
}) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={`filter-${name}`}>
        {label}
      </label>
      <select id={`filter-${name}`} name={name} className="select" defaultValue={String(value)}>
        <option value="">{all}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
