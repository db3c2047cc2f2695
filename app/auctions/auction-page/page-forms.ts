import { type FieldMetadata, type FormMetadata, getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import type { FormEvent } from "react";
import { useAnswerOnThisPage } from "~/forms/answer-on-this-page";
import { validatedBy } from "~/forms/browser-validation";
import type { AuctionActionData } from "./auction-page.server";
import {
  type AuctionPageForm,
  type AuctionPageIntent,
  auctionPageSchema,
  oneAuctionPageError,
} from "./auction-page-schema";

/** The fields of the page's forms as the browser sends them (each form sends its own). */
type PageFields = { intent: string; amount: string; minimum: string; reason: string; confirm: string };
type PageForm = FormMetadata<PageFields, string[]>;
export type PageField = FieldMetadata<string, PageFields, string[]>;
/** A page form's Conform state and its submit handler (which counts the attempt, for the summary's focus). */
export type BoundForm = {
  form: PageForm;
  fields: Record<keyof PageFields, PageField>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  lastResult: SubmissionResult<string[]>;
};

/** A refusal goes back to the form of its intent; any other answer or a new page clears a form's errors. */
export function usePageForm(
  id: string,
  intent: AuctionPageIntent,
  answer: AuctionActionData | undefined,
  onAttempt: () => void,
) {
  const lastResult = useAnswerOnThisPage(
    answer && "result" in answer && answer.intent === intent ? answer.result : undefined,
  );
  const [form, fields] = useForm<PageFields, AuctionPageForm>({
    id,
    lastResult,
    // The server's answer to the same form, without a round trip.
    ...validatedBy(auctionPageSchema, { constraint: false, adjustErrors: oneAuctionPageError }),
  });
  const formProps = getFormProps(form);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    onAttempt();
    formProps.onSubmit(event);
  };
  return { form, fields, onSubmit, lastResult } as BoundForm;
}
