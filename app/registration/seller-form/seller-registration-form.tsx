import { type FieldMetadata, getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { type FormEvent, useMemo } from "react";
import { Form } from "react-router";
import { firstCheckboxId } from "~/catalogue/pickers/checkbox-tree";
import {
  type ServiceAreaCheckboxData,
  type ServiceCheckboxData,
  serviceAreaTree,
  serviceTreeNodes,
} from "~/catalogue/pickers/picker-selection";
import { ServicePicker } from "~/catalogue/pickers/service-picker";
import { validatedBy } from "~/forms/browser-validation";
import { withOptionalFields } from "~/forms/constraints";
import { ErrorSummary, type FieldErrorLink } from "~/forms/error-summary";
import {
  CheckboxField,
  DateFromTodayField,
  RadioGroupField,
  radioId,
  SelectField,
  TextAreaField,
  TextField,
} from "~/forms/field";
import { fieldList } from "~/forms/field-list";
import { summaryLinks } from "~/forms/form-errors";
import { RepeatableGroup } from "~/forms/repeatable-group";
import { SubmitButton } from "~/forms/submit-button";
import {
  type CardCaptureValues,
  type CardPaymentSetup,
  STRIPE_TOKEN_FIELD,
} from "~/payments/card-capture/card-capture";
import { cardSummaryLinks } from "~/payments/card-capture/card-capture-fields";
import { useCardCapture } from "~/payments/card-capture/use-card-capture";
import type { FormValues } from "../changes/stored-registration.server";
import {
  type CommonRegistrationValues,
  GeneralInformationSection,
  generalInformationSummaryLinks,
  IndustryAndServiceAreaSections,
} from "../form/general-information-section";
import { INCOMPLETE_FORM } from "../form/registration-data";
import type { RegistrationFormOptions } from "../form/registration-form.server";
import { KeyPersonFieldset, type KeyPersonValues, keyPersonSummaryLinks, NEW_KEY_PERSON } from "./key-person-fieldset";
import { SellerPaymentSection } from "./seller-payment-section";
import {
  COVERAGE_TIERS,
  createSellerRegistrationFormSchema,
  INSURANCE_LABELS,
  NO_COVERAGE,
  NO_SERVICE_CHOSEN,
  OPERATIONS_CONTACT_ADDED,
  OPTIONAL_INSURANCE,
  REQUIRED_INSURANCE,
  SAFETY_CERTIFICATIONS,
  type SellerRegistrationData,
} from "./seller-registration-schema";

type WcbValues = { state: string; number: string; expire_at: string };

/** The form's fields as the browser sends them (the schema turns them into the API's data object). */
type SellerFormValues = CommonRegistrationValues &
  CardCaptureValues &
  Record<
    | "sa_written_safety_program"
    | "sa_conduct_hazard_assessments"
    | "sa_safe_work_procedures"
    | "sa_one_man_op"
    | "sa_third_party_sub"
    | "sc_comply_works"
    | "sc_comply_works_expiry"
    | "sc_isnet_world"
    | "sc_isnet_world_expiry"
    | "sc_secor"
    | "sc_secor_expiry"
    | "in_commercial_general"
    | "in_commercial_general_expiry"
    | "in_third_party_automobile"
    | "in_third_party_automobile_expiry"
    | "in_aircraft"
    | "in_aircraft_expiry"
    | "in_pollution"
    | "in_pollution_expiry"
    | "in_fire"
    | "in_fire_expiry"
    | "in_errors_omissions"
    | "in_errors_omissions_expiry"
    | "in_wcb_coverage_number"
    | "in_wcb_expiry"
    | "feedback"
    | "operations_contact_added",
    string
  > & {
    services: string[];
    wcbs: WcbValues[];
    salesContact: KeyPersonValues;
    operationsContact: KeyPersonValues;
  };

const SAFETY_QUESTIONS = [
  { name: "sa_written_safety_program", question: "Do you have a written safety program?" },
  { name: "sa_conduct_hazard_assessments", question: "Do you conduct hazard assessments?" },
  { name: "sa_safe_work_procedures", question: "Do you have safe work procedures?" },
  { name: "sa_one_man_op", question: "Are you a one-person operation?" },
  { name: "sa_third_party_sub", question: "Do you use third-party subcontractors?" },
] as const;

const INSURANCE = [
  ...REQUIRED_INSURANCE.map((name) => ({ name, label: INSURANCE_LABELS[name], required: true })),
  ...OPTIONAL_INSURANCE.map((name) => ({ name, label: INSURANCE_LABELS[name], required: false })),
];

const TIER_OPTIONS = COVERAGE_TIERS.map((tier) => ({ value: tier, label: tier }));

const RECOMMENDED =
  "We recommend completing this section: preference may be given to sellers with complete information.";
const WCB_REMOVE_CONFIRMATION = "Are you sure you want to remove this WCB?";

export type SellerFormProps = {
  id: string;
  accessToken: string;
  options: RegistrationFormOptions;
  serviceAreas: ServiceAreaCheckboxData;
  serviceCategories: ServiceCheckboxData;
  /** The card section of a new registration; absent when a card is already on file. */
  payment?: CardPaymentSetup;
  /** The card on file ("Visa ending 4242"), said in place of the card section when resubmitting. */
  savedCard?: string | null;
  /** The stored registration, when the form is shown again pre-filled. */
  defaultValue?: FormValues;
  /** Dates on file that may stay unchanged even once past (profile editing). */
  keptDates?: readonly string[];
  /** The feedback section belongs to the application, not to the profile. */
  showFeedback?: boolean;
  submitLabel?: string;
  today: string;
  currentYear: number;
  lastResult?: SubmissionResult<string[]>;
  selectedServiceAreas?: number[];
  selectedServices?: number[];
  cardError?: string;
};

const NONE: number[] = [];

/**
 * Without JavaScript, '+ Add Operations Contact' posts a page that had no operations contact fields,
 * so the answer would show the contact with no blocks at all: like the sales contact, it starts with
 * one block of each (spec section 9).
 */
function withNewOperationsContact(result?: SubmissionResult<string[]>): SubmissionResult<string[]> | undefined {
  if (!result?.initialValue || result.initialValue.operationsContact !== undefined) return result;
  return { ...result, initialValue: { ...result.initialValue, operationsContact: NEW_KEY_PERSON } };
}

/** Optional coverages default to 'No' (their empty choice); repeatable blocks are optional as a whole. */
const isOptionalInForm = (name: string) =>
  (OPTIONAL_INSURANCE as readonly string[]).includes(name) || name.includes("[]");

/**
 * Step 5 for sellers: the ten sections of spec section 2. A plain form: without JavaScript the server
 * validates and answers with the same page, values kept (card fields excepted); repeatable blocks
 * are added and removed by intent buttons that post the form.
 */
export function SellerRegistrationForm({
  id,
  accessToken,
  options,
  serviceAreas,
  serviceCategories,
  payment,
  savedCard,
  defaultValue,
  keptDates,
  showFeedback = true,
  submitLabel = "Submit Registration",
  today,
  currentYear,
  lastResult,
  selectedServiceAreas = NONE,
  selectedServices = NONE,
  cardError: serverCardError,
}: SellerFormProps) {
  const schema = useMemo(
    () =>
      createSellerRegistrationFormSchema({ today, currentYear, cardFields: payment?.provider === "test", keptDates }),
    [today, currentYear, payment?.provider, keptDates],
  );
  const constraint = useMemo(() => withOptionalFields(getZodConstraint(schema), isOptionalInForm), [schema]);
  const result = useMemo(() => withNewOperationsContact(lastResult), [lastResult]);
  const [form, fields] = useForm<SellerFormValues, SellerRegistrationData>({
    id,
    lastResult: result,
    defaultValue: {
      wcbs: [{}],
      salesContact: NEW_KEY_PERSON,
      operationsContact: NEW_KEY_PERSON,
      ...defaultValue,
    } as unknown as Partial<SellerFormValues>,
    ...validatedBy(schema, { constraint }),
  });
  const capture = useCardCapture(payment, { serverAnswer: lastResult, serverCardError });

  const operationsAdded = fields.operations_contact_added.value === "yes";
  const serviceFieldId = firstCheckboxId("services", serviceTreeNodes(serviceCategories));
  const wcbLinks = fieldList(fields.wcbs).flatMap((item) => {
    const block = item.getFieldset();
    return summaryLinks([block.state, block.number, block.expire_at]);
  });
  const fieldLinks: FieldErrorLink[] = [
    ...generalInformationSummaryLinks(fields),
    ...SAFETY_QUESTIONS.flatMap(({ name }) =>
      (fields[name].errors ?? []).map((message) => ({ fieldId: radioId(fields[name], 0), message })),
    ),
    ...summaryLinks(SAFETY_CERTIFICATIONS.flatMap((item) => [fields[item.checkbox], fields[item.expiry]])),
    ...summaryLinks(INSURANCE.flatMap((item) => [fields[item.name], fields[`${item.name}_expiry`]])),
    ...summaryLinks([fields.in_wcb_coverage_number, fields.in_wcb_expiry, fields.wcbs]),
    ...wcbLinks,
    ...summaryLinks([fields.primary_industry]),
    ...(fields.serviceAreas.errors ?? []).map((message) => ({
      fieldId: firstCheckboxId("service-areas", serviceAreaTree(serviceAreas)),
      message,
    })),
    ...(fields.services.errors ?? []).map((message) => ({ fieldId: serviceFieldId, message })),
    ...keyPersonSummaryLinks(fields.salesContact),
    ...(operationsAdded ? keyPersonSummaryLinks(fields.operationsContact) : []),
    ...summaryLinks([fields.feedback]),
    ...cardSummaryLinks(fields),
  ];
  const onlyServiceMissing =
    fieldLinks.length > 0 &&
    fieldLinks.every((link) => link.fieldId === serviceFieldId && link.message === NO_SERVICE_CHOSEN);
  const formMessage = fieldLinks.length === 0 ? [] : [onlyServiceMissing ? NO_SERVICE_CHOSEN : INCOMPLETE_FORM];
  const formErrors = [...new Set([...formMessage, ...(form.errors ?? [])])];

  const formProps = getFormProps(form);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const isIntent = submitter?.getAttribute("name") === "__intent__";
    // Spec section 4's order with Stripe.js: the form (a service included) is checked first, then the card token.
    capture.onSubmit(event, formProps.onSubmit, { attempt: !isIntent });
  }

  return (
    <Form method="post" {...formProps} onSubmit={onSubmit} className="stack registration-form">
      <ErrorSummary formErrors={formErrors} fieldErrors={fieldLinks} submissionKey={[lastResult, capture.attempts]} />
      <p>All fields are required unless marked optional.</p>
      <input type="hidden" name="reg_access_token" value={accessToken} />
      <input type="hidden" name={STRIPE_TOKEN_FIELD} defaultValue="" />

      <GeneralInformationSection id={id} fields={fields} options={options} />

      <section className="form-section" aria-labelledby={`${id}-safety`}>
        <h2 id={`${id}-safety`}>2.0 Safety Program Information</h2>
        <p className="note">{RECOMMENDED}</p>
        {SAFETY_QUESTIONS.map(({ name, question }) => (
          <RadioGroupField key={name} field={fields[name]} legend={`${question} (optional)`} options={["Yes", "No"]} />
        ))}
      </section>

      <section className="form-section" aria-labelledby={`${id}-certifications`}>
        <h2 id={`${id}-certifications`}>3.0 Safety / Certifications</h2>
        <p className="note">{RECOMMENDED}</p>
        {SAFETY_CERTIFICATIONS.map((certification) => (
          <fieldset className="fieldset" key={certification.checkbox}>
            <legend className="fieldset__legend">{certification.label}</legend>
            <CheckboxField field={fields[certification.checkbox]} label={`We hold ${certification.label}`} />
            <DateFromTodayField
              field={fields[certification.expiry]}
              label={`${certification.label} Expiry Date`}
              today={today}
              hint="Required when ticked. Today or later."
            />
          </fieldset>
        ))}
      </section>

      <section className="form-section" aria-labelledby={`${id}-insurance`}>
        <h2 id={`${id}-insurance`}>4.0 Insurance &amp; WCB</h2>
        <p className="note">{RECOMMENDED}</p>
        <p className="note">
          When work is done on a buyer's worksite, the buyer must be named as <strong>additional insured</strong>, not
          as certificate holder.
        </p>
        {INSURANCE.map((insurance) => (
          <fieldset className="fieldset" key={insurance.name}>
            <legend className="fieldset__legend">
              {insurance.label}
              {insurance.required ? "" : " (optional)"}
            </legend>
            <SelectField
              field={fields[insurance.name]}
              label="Coverage"
              options={TIER_OPTIONS}
              placeholder={insurance.required ? undefined : NO_COVERAGE}
              hint={insurance.required ? undefined : "Defaults to 'No'."}
            />
            <DateFromTodayField
              field={fields[`${insurance.name}_expiry`]}
              label="Expiry Date"
              today={today}
              hint={
                insurance.required ? "Today or later." : "Required once a coverage level is chosen. Today or later."
              }
            />
          </fieldset>
        ))}
        <fieldset className="fieldset">
          <legend className="fieldset__legend">WCB Coverage (optional)</legend>
          <TextField field={fields.in_wcb_coverage_number} label="WCB Coverage Number" />
          <DateFromTodayField field={fields.in_wcb_expiry} label="WCB Expiry Date" today={today} />
        </fieldset>
        <RepeatableGroup
          form={form}
          list={fields.wcbs}
          heading="WCB"
          noun="WCB"
          hint="Optional. Once a province or state is chosen, the number and expiry date are required; only complete entries are kept."
          removeConfirmation={WCB_REMOVE_CONFIRMATION}
          headingLevel={3}
          render={(item) => <WcbFields item={item} options={options} today={today} />}
        />
      </section>

      <IndustryAndServiceAreaSections
        id={id}
        numbers={["5.0", "6.0"]}
        industry={fields.primary_industry}
        serviceAreas={fields.serviceAreas}
        options={options}
        serviceAreaData={serviceAreas}
        selectedServiceAreas={selectedServiceAreas}
      />

      <ServicePicker
        data={serviceCategories}
        selected={selectedServices}
        errors={fields.services.errors}
        legend={<h2>7.0 Service Categories</h2>}
      />

      <section className="form-section" aria-labelledby={`${id}-key-personnel`}>
        <h2 id={`${id}-key-personnel`}>8.0 Key Personnel</h2>
        <KeyPersonFieldset
          form={form}
          person={fields.salesContact}
          legend="Sales Contact"
          required
          today={today}
          currentYear={currentYear}
        />
        <input type="hidden" name={OPERATIONS_CONTACT_ADDED} value={operationsAdded ? "yes" : ""} />
        {operationsAdded ? (
          <KeyPersonFieldset
            form={form}
            person={fields.operationsContact}
            legend="Operations Contact (optional)"
            required={false}
            today={today}
            currentYear={currentYear}
            actions={
              <button
                {...form.update.getButtonProps({ name: fields.operations_contact_added.name, value: "" })}
                className="button button--secondary"
              >
                Remove Operations Contact
              </button>
            }
          />
        ) : (
          <button
            {...form.update.getButtonProps({ name: fields.operations_contact_added.name, value: "yes" })}
            className="link-button"
          >
            + Add Operations Contact
          </button>
        )}
      </section>

      {showFeedback ? (
        <section className="form-section" aria-labelledby={`${id}-feedback-heading`}>
          <h2 id={`${id}-feedback-heading`}>9.0 Feedback</h2>
          <TextAreaField
            field={fields.feedback}
            label="How did you hear about us, and is there anything you would like us to know? (optional)"
          />
        </section>
      ) : null}

      {payment ? (
        <SellerPaymentSection id={id} payment={payment} cardFields={fields} {...capture.card} />
      ) : savedCard ? (
        <section className="form-section" aria-labelledby={`${id}-payment`}>
          <h2 id={`${id}-payment`}>10.0 Payment</h2>
          <p>{`Your ${savedCard} stays on file. No charge is taken until your registration is approved and the free trial has ended.`}</p>
        </section>
      ) : null}

      <SubmitButton busy={capture.requestingToken}>{submitLabel}</SubmitButton>
    </Form>
  );
}

function WcbFields({
  item,
  options,
  today,
}: {
  item: FieldMetadata<WcbValues>;
  options: RegistrationFormOptions;
  today: string;
}) {
  const block = item.getFieldset();
  return (
    <>
      <SelectField field={block.state} label="Province / State" options={[...options.provinces, ...options.usStates]} />
      <TextField field={block.number} label="WCB Number" />
      <DateFromTodayField field={block.expire_at} label="Expiry Date" today={today} />
    </>
  );
}
