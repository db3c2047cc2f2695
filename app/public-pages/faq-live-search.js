// The FAQ's live search on a page the server rendered without the app's scripts (issue 20): a small
// plain module, loaded by a `<script type="module">` (deferred: it never holds back the first paint).
// Without it the search form submits ?q= and the server filters. The match and the result count are
// the same as `faq-search.ts` (the server's and the app's); `faq-live-search.test.ts` holds them equal.

/**
 * Case-insensitive text match over an entry's texts (question, then answer paragraphs); an empty
 * query matches every entry.
 * @param {string[]} texts
 * @param {string} query
 */
export function matchesQuery(texts, query) {
  const needle = query.trim().toLocaleLowerCase("en-CA");
  return !needle || texts.some((text) => text.toLocaleLowerCase("en-CA").includes(needle));
}

/**
 * @param {number} count
 * @param {number} total
 */
export function describeResults(count, total) {
  if (count === 0) return "No results found.";
  if (count === total) return `Showing all ${questions(total)}.`;
  return `${questions(count)} found.`;
}

// The same words as faq-search.ts's (counted in app/shared/words.ts): this file is served as it is, unbundled.
const cardinalRules = new Intl.PluralRules("en-CA");
/** @param {number} n */
const questions = (n) => `${n} ${cardinalRules.select(n) === "one" ? "question" : "questions"}`;

function enhance() {
  const input = document.getElementById("faq-search");
  const count = document.getElementById("faq-result-count");
  const form = input?.closest("form");
  if (!(input instanceof HTMLInputElement) || !count || !form) return;
  // Every entry: on a page the server filtered (?q=), all of them wait in a template.
  const template = document.getElementById("faq-all-entries");
  const source = template instanceof HTMLTemplateElement ? template.content : document;
  const entries = [...source.querySelectorAll("section.faq-entry")].map((section) => ({
    section,
    texts: [...section.querySelectorAll("h2, p")].map((element) => element.textContent ?? ""),
  }));
  let shown = [...document.querySelectorAll("section.faq-entry")];

  const show = () => {
    const matching = entries.filter((entry) => matchesQuery(entry.texts, input.value)).map((entry) => entry.section);
    for (const section of shown) if (!matching.includes(section)) section.remove();
    let previous = count;
    for (const section of matching) {
      if (previous.nextElementSibling !== section) previous.after(section);
      previous = section;
    }
    shown = matching;
    const text = describeResults(matching.length, entries.length);
    // Unchanged text is not rewritten: the count is a live region.
    if (count.textContent !== text) count.textContent = text;
  };
  input.addEventListener("input", show);
  // Enter keeps the live result in place, as the app does.
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    show();
  });
  // The box may hold more than the server saw (typed before this loaded, or restored by the browser).
  show();
}

if (typeof document !== "undefined") enhance();
