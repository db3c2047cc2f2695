import { afterEach, expect } from "vitest";
import { takePageErrors } from "./browser";

// Every browser test fails when a page raised an error during it (issue 17): an uncaught exception
// or a console error, React's hydration mismatch (#418) included. See `takePageErrors`.
afterEach(() => {
  expect(takePageErrors(), "errors raised by the pages during this test").toEqual([]);
});
