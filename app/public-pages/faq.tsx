import { useState } from "react";
import { Form, useSearchParams } from "react-router";
import { type PageScripts, usePageScripts } from "~/layout/no-javascript";
import { pageTitle } from "~/layout/page-title";
import { type FaqEntry, faqEntries } from "./content/faq-entries";
import faqLiveSearch from "./faq-live-search.js?url&no-inline";
import { describeResults, searchFaq } from "./faq-search";

// A first visit gets the server's page and a small live-search script instead of the app (issue 20).
export const handle: PageScripts = { hydrate: false, scripts: [faqLiveSearch] };

export function meta() {
  return [{ title: pageTitle("FAQ") }];
}

function FaqEntrySection({ entry }: { entry: FaqEntry }) {
  return (
    <section className="faq-entry" aria-labelledby={`faq-${entry.id}`}>
      <h2 id={`faq-${entry.id}`}>{entry.question}</h2>
      {entry.answer.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
    </section>
  );
}

/**
 * Without JavaScript the search box submits ?q= and the server renders the filtered list. On a first
 * visit, `faq-live-search.js` filters as the user types; inside the running app (reached by a link),
 * this component does. Either way the result count is announced.
 */
export default function Faq() {
  const [searchParams] = useSearchParams();
  const [query, setQuery] = useState(searchParams.get("q") ?? "");
  const results = searchFaq(faqEntries, query);
  // The live-search script needs every entry, also when the server filtered the list.
  const allEntriesForScript = !usePageScripts().app && results.length !== faqEntries.length;

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
        <FaqEntrySection key={entry.id} entry={entry} />
      ))}
      {allEntriesForScript ? (
        <template id="faq-all-entries">
          {faqEntries.map((entry) => (
            <FaqEntrySection key={entry.id} entry={entry} />
          ))}
        </template>
      ) : null}
    </article>
  );
}
