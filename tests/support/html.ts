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
