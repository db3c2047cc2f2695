import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { expect } from "vitest";
import { LinkedText } from "~/forms/linked-text";

// Checks on a page's HTML that name the text on failure instead of printing the whole page.

export function expectIn(html: string, text: string) {
  expect(html.includes(text), `page contains ${text}`).toBe(true);
}

export function expectNotIn(html: string, text: string) {
  expect(html.includes(text), `page does not contain ${text}`).toBe(false);
}

/** A message as a page shows it: the pages it names as links (issue 32: "at <a href="/account/card">…"). */
export const linkedHtml = (text: string) => renderToStaticMarkup(createElement(LinkedText, { text }));

/** Each table row of a page as its cells' text, joined by " | " (tags dropped, the usual entities decoded). */
export function tableRowTexts(html: string): string[] {
  const text = (cell: string) =>
    cell
      .replace(/<[^>]*>/g, "")
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&")
      .trim();
  return [...html.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
    [...(row ?? "").matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map(([, cell]) => text(cell ?? "")).join(" | "),
  );
}

/** The part of a page from the first `from` to the next `to` after it (or to the end). */
export function htmlBetween(html: string, from: string, to: string): string {
  const start = html.indexOf(from);
  expect(start, `page contains ${from}`).toBeGreaterThanOrEqual(0);
  const end = html.indexOf(to, start + from.length);
  return html.slice(start, end === -1 ? undefined : end);
}
