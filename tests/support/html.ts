import { expect } from "vitest";

// Checks on a page's HTML that name the text on failure instead of printing the whole page.

export function expectIn(html: string, text: string) {
  expect(html.includes(text), `page contains ${text}`).toBe(true);
}

export function expectNotIn(html: string, text: string) {
  expect(html.includes(text), `page does not contain ${text}`).toBe(false);
}
