import { useState } from "react";
import { Form, useSearchParams } from "react-router";
import { pageTitle } from "~/layout/page-title";
import { faqEntries } from "./content/faq-entries";
import { describeResults, searchFaq } from "./faq-search";

export function meta() {
  return [{ title: pageTitle("FAQ") }];
}

/**
 * Without JavaScript the search box submits ?q= and the server renders the filtered list; with it,
 * the list filters as the user types and the result count is announced.
 */
export default function Faq() {
  const [searchParams] = useSearchParams();
  const [query, setQuery] = useState(searchParams.get("q") ?? "");
  const results = searchFaq(faqEntries, query);

  return (
    <article className="prose">
      <h1>Frequently asked questions</h1>
      <Form method="get" role="search" className="search" onSubmit={(event) => event.preventDefault()}>
        <label className="field__label" htmlFor="faq-search">
          Search FAQs
        </label>
        <div className="search__row">
          <input
            className="input"
            id="faq-search"
            name="q"
            type="search"
            value={query}
            onChange={(event) => setQuery(event.currentTarget.value)}
            aria-describedby="faq-result-count"
          />
          <button type="submit" className="button button--secondary">
            Search
          </button>
        </div>
      </Form>
      <p id="faq-result-count" className="search__count" role="status" aria-live="polite">
        {describeResults(results.length, faqEntries.length)}
      </p>
      {results.map((entry) => (
        <section key={entry.id} className="faq-entry" aria-labelledby={`faq-${entry.id}`}>
          <h2 id={`faq-${entry.id}`}>{entry.question}</h2>
          {entry.answer.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
    </article>
  );
}
