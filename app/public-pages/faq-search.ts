import { counted } from "~/shared/words";
import type { FaqEntry } from "./content/faq-entries";

/** Case-insensitive text match over question and answer; an empty query keeps every entry. */
export function searchFaq(entries: FaqEntry[], query: string): FaqEntry[] {
  const needle = query.trim().toLocaleLowerCase("en-CA");
  if (!needle) return entries;
  return entries.filter((entry) =>
    [entry.question, ...entry.answer].some((text) => text.toLocaleLowerCase("en-CA").includes(needle)),
  );
}

export function describeResults(count: number, total: number): string {
  if (count === 0) return "No results found.";
  if (count === total) return `Showing all ${counted(total, "question", "questions")}.`;
  return `${counted(count, "question", "questions")} found.`;
}
