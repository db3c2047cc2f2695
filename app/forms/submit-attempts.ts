import { type FormMetadata, getFormProps } from "@conform-to/react";
import { type FormEvent, useMemo, useState } from "react";

/**
 * A Conform form's props with its submit attempts counted, and the key the error summary takes focus
 * on: a new key for each server answer and each attempt (also one stopped in the browser with the
 * same errors as before), and only then, not on every render while the user types.
 */
// biome-ignore lint/suspicious/noExplicitAny: any form's metadata; only its props are read.
export function useSubmitAttempts(form: FormMetadata<any, any>, answer: unknown) {
  const [attempts, setAttempts] = useState(0);
  const submissionKey = useMemo(() => [answer, attempts], [answer, attempts]);
  const formProps = getFormProps(form);
  return {
    submissionKey,
    formProps: {
      ...formProps,
      onSubmit(event: FormEvent<HTMLFormElement>) {
        setAttempts((count) => count + 1);
        formProps.onSubmit(event);
      },
    },
  };
}
