import type { SubmissionResult } from "@conform-to/react";
import { useMemo } from "react";
import { useLocation } from "react-router";

/**
 * A Conform form's last server answer, for the page it answered only: a new page (the redirect after
 * a success) hands the form an empty result, which clears the errors Conform keeps, as a page load
 * does without JavaScript. For pages that must not remount (a live auction keeps its event stream).
 */
export function useAnswerOnThisPage(answer: SubmissionResult<string[]> | undefined): SubmissionResult<string[]> {
  const { key } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page (a new location key) clears the errors
  return useMemo(() => answer ?? { error: {} }, [answer, key]);
}
