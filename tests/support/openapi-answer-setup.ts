import { afterAll, afterEach } from "vitest";
import { takeApiAnswerMismatches } from "./openapi-answer-check";

// Every integration test fails when an /api answer it received is not what GET /api/openapi.json
// describes (tests/support/openapi-answer-check.ts); answers given outside a test (beforeAll) are
// reported at the end of the file.
function failOnMismatches(when: string) {
  const mismatches = takeApiAnswerMismatches();
  if (mismatches.length === 0) return;
  throw new Error(
    `/api answers ${when} that the API description does not describe (fix the route, or app/api-description/openapi-document.ts if the route is right):\n${mismatches.map((line) => `- ${line}`).join("\n")}`,
  );
}

afterEach(() => failOnMismatches("during this test"));
afterAll(() => failOnMismatches("outside the tests of this file"));
